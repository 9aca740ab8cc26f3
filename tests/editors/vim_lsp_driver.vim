" Headless Vim + vim-lsp driver for tests/editors/test_vim_lsp.py.
"
"   vim -N -u vim_lsp_driver.vim -i NONE --not-a-term
"
" Environment: RULELENS_VIM_LSP (the vim-lsp folder), RULELENS_PROJECT (the project root),
" RULELENS_RESULT (where to write the JSON), RULELENS_VIMLSP_LOG (optional: vim-lsp's log
" file, with every message). The registration between the markers is the
" vim-lsp section of docs/vim.md. The driver picks the record action twice through vim-lsp's own
" code-action menu, without saving in between, then saves every buffer.

set nocompatible
set encoding=utf-8
set hidden
let s:result = {'menus': [], 'buffers': []}
execute 'set runtimepath^=' . fnameescape($RULELENS_VIM_LSP)
let g:lsp_log_file = $RULELENS_VIMLSP_LOG
let g:lsp_diagnostics_enabled = 1
let g:lsp_code_action_ui = 'float'

" --- the configuration from docs/vim.md ------------------------------------------------
augroup rulelens
  autocmd!
  autocmd User lsp_setup call lsp#register_server({
  \   'name': 'rulelens',
  \   'cmd': {server_info -> ['rulelens', 'serve']},
  \   'root_uri': {server_info -> lsp#utils#path_to_uri(
  \       lsp#utils#find_nearest_parent_file_directory(
  \           lsp#utils#get_buffer_path(), ['.ai/', '.git/']))},
  \   'allowlist': ['*'],
  \   'workspace_config': {'rulelens': {'prompt': v:false}},
  \ })
augroup END
" -----------------------------------------------------------------------------------------

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

" vim-lsp's code-action menu, answered with the action for `glob` (the menu's callback is
" what a key press in the popup calls).
let s:pick = ''
function! s:Answer(opt) abort
  let l:items = a:opt.items
  call add(s:result.menus, copy(l:items))
  let l:wanted = 0
  for l:i in range(len(l:items))
    if l:items[l:i] =~# '\V Record a project rule for ' . s:pick . ' ('
      let l:wanted = l:i + 1
    endif
  endfor
  call a:opt.callback(0, l:wanted)
endfunction

function! s:Record(glob) abort
  let s:pick = a:glob
  let l:menus = len(s:result.menus)
  call cursor(1, 1)
  LspCodeAction
  " the menu's callback applies the chosen edit before this wait sees the menu
  call s:Wait('the code action menu', 'len(s:result.menus) > ' . l:menus)
endfunction

function! s:Run() abort
  execute 'edit ' . fnameescape($RULELENS_PROJECT . '/app/Models/User.php')
  let s:result.filetype = &filetype
  call s:Wait('the server', 'lsp#get_server_status("rulelens") ==# "running"')
  call s:Wait('the rules diagnostic',
  \ 'get(lsp#get_buffer_diagnostics_counts(), "information", 0) + get(lsp#get_buffer_diagnostics_counts(), "hint", 0) > 0')
  " vim-lsp's popup menu is the real UI; answer it the way a key press would
  runtime autoload/lsp/internal/ui/popupmenu.vim
  function! lsp#internal#ui#popupmenu#open(opt) abort
    call s:Answer(a:opt)
  endfunction
  call s:Record('app/Models/*.php')
  let l:models = $RULELENS_PROJECT . '/.ai/rules/models.md'
  let s:result.after_first = join(getbufline(bufnr(l:models), 1, '$'), "\n")
  call s:Record('app/Models/User.php')
  let s:result.after_second = join(getbufline(bufnr(l:models), 1, '$'), "\n")
  let s:result.modified = getbufvar(bufnr(l:models), '&modified')
  silent! wall
  let s:result.messages = execute('messages')
endfunction

function! s:Finish(...) abort
  try
    call s:Run()
  catch
    let s:result.error = v:exception . ' at ' . v:throwpoint
  endtry
  call writefile([json_encode(s:result)], $RULELENS_RESULT)
  qall!
endfunction

" after vim-lsp's own VimEnter (lsp#enable), which registers the server
autocmd VimEnter * call timer_start(0, function('s:Finish'))
