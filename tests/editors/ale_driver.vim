" Headless Vim + ALE driver for tests/editors/test_vim.py.
"
"   vim -N -u ale_driver.vim -i NONE --not-a-term
"
" Environment: RULELENS_PROJECT (the project root), RULELENS_RESULT (where to write the
" JSON). The ALE setup between the markers is the one docs/vim.md recommends.

set nocompatible
set encoding=utf-8
set hidden  " ALE opens the rule file to apply an edit while the source file stays open
let s:result = {}

" --- the configuration from docs/vim.md ------------------------------------------------
packadd! ale

function! RulelensRoot(buffer) abort
  for l:marker in ['.ai', '.git']
    let l:dir = ale#path#FindNearestDirectory(a:buffer, l:marker)
    if !empty(l:dir)
      return fnamemodify(l:dir, ':h:h')
    endif
  endfor
  return ''
endfunction

" ALE's linters belong to a filetype: define rulelens for each filetype as it appears.
let s:rulelens_defined = {}
function! s:DefineRulelens(filetype) abort
  if empty(a:filetype) || has_key(s:rulelens_defined, a:filetype)
    return
  endif
  let s:rulelens_defined[a:filetype] = 1
  call ale#linter#Define(a:filetype, {
  \   'name': 'rulelens',
  \   'lsp': 'stdio',
  \   'executable': 'rulelens',
  \   'command': '%e serve',
  \   'project_root': function('RulelensRoot'),
  \})
endfunction
augroup rulelens
  autocmd!
  autocmd FileType * call s:DefineRulelens(expand('<amatch>'))
augroup END
" -----------------------------------------------------------------------------------------

let g:ale_hover_to_preview = 1   " so that the driver can read the hover text
let g:ale_linters_explicit = 0
filetype plugin on
syntax off

function! s:Wait(what, condition) abort
  let l:deadline = reltimefloat(reltime()) + 60
  while !eval(a:condition)
    if reltimefloat(reltime()) > l:deadline
      throw 'timed out waiting for ' . a:what
    endif
    sleep 50m
  endwhile
endfunction

function! s:RulelensItems() abort
  return filter(copy(ale#engine#GetLoclist(bufnr('%'))), 'v:val.linter_name is# "rulelens"')
endfunction

function! s:PreviewText() abort
  for l:win in range(1, winnr('$'))
    if getwinvar(l:win, '&previewwindow')
      return join(getbufline(winbufnr(l:win), 1, '$'), "\n")
    endif
  endfor
  return ''
endfunction

function! s:Run() abort
  execute 'edit ' . fnameescape($RULELENS_PROJECT . '/app/Models/User.php')
  let s:result.filetype = &filetype
  ALELint
  call s:Wait('the rules diagnostic', '!empty(s:RulelensItems())')
  let s:result.diagnostics = map(s:RulelensItems(), '{"text": v:val.text, "type": v:val.type, "code": get(v:val, "code", ""), "lnum": v:val.lnum, "col": v:val.col}')
  call cursor(1, 1)
  call ale#hover#Show(bufnr('%'), 1, 1, {})
  call s:Wait('the hover', '!empty(s:PreviewText())')
  let s:result.hover = s:PreviewText()
  pclose
  call s:RecordAction()
endfunction

" :ALECodeAction, answering its numbered menu with the `dir/*.ext` glob. ALE applies the
" chosen action inside the callback that showed the menu, so once the menu was shown the
" edit (if any) is already in the rule file's buffer.
function! s:RecordAction() abort
  call ale#util#Mode()  " load ale/util.vim so that the definition below replaces its Input
  let g:rulelens_menus = []
  function! ale#util#Input(message, value, ...) abort
    call add(g:rulelens_menus, a:message)
    let l:pick = matchstr(a:message, '\v(\d+)\ze\) Record a project rule for app/Models/\*\.php')
    return l:pick
  endfunction
  call cursor(1, 1)
  ALECodeAction
  call s:Wait('the code action menu', '!empty(g:rulelens_menus)')
  let s:result.action_menu = g:rulelens_menus[0]
  let l:models = bufnr($RULELENS_PROJECT . '/.ai/rules/models.md')
  let s:result.skeleton = l:models > 0 ? join(getbufline(l:models, 1, '$'), "\n") . "\n" : ''
endfunction

function! s:Finish() abort
  try
    call s:Run()
  catch
    let s:result.error = v:exception . ' at ' . v:throwpoint
  endtry
  call writefile([json_encode(s:result)], $RULELENS_RESULT)
  qall!
endfunction

autocmd VimEnter * ++nested call s:Finish()
