-- rulelens for Neovim: start the language server on every file, prompt for recorded rules,
-- and list the rules that apply to a buffer. See `:help rulelens`.
--
-- This module is the face: options, `setup()` and the public functions. The work is in
-- `rulelens.start` (the five ways to start the server), `rulelens.record` (the prompts) and
-- `rulelens.rules` (:RulelensRules), each loaded on first use. Works on Neovim 0.7 and later:
-- only APIs that exist on 0.7 are used outside the branches that check for them.

local M = {}

M.name = 'rulelens'
M.record_rule = 'rulelens.recordRule'
M.record_kind = 'source.rulelens.record'
M.rules_for_path = 'rulelens/rulesForPath'
M.suggest_globs = 'rulelens/suggestGlobs'
M.verify_command = 'rulelens.verify'
M.default_rules_folder = '.ai/rules'

local defaults = {
  cmd = { 'rulelens', 'serve' },
  -- nil: the rules folder (settings.rulesFolder, else `.ai/rules`), then `.git`.
  root_markers = nil,
  -- The server's `rulelens` section (:help rulelens-settings).
  settings = {},
  -- Also attach to buffers whose filetype is empty (`vim.lsp.enable` skips them).
  empty_filetype = true,
  -- 'quickfix' or 'select': how :RulelensRules shows the rules.
  rules_list = 'quickfix',
  -- Define :RulelensRecord and :RulelensRules (plugin/rulelens.lua defines them too).
  user_commands = true,
  -- Use nvim-lspconfig's legacy `lspconfig.configs` on Neovim < 0.11 when it is installed.
  lspconfig = true,
  -- How to start the server: 'auto' (by version, as above), 'enable', 'lspconfig', 'start'
  -- (vim.lsp.start on every file buffer) or 'start_client' (Neovim 0.7's way).
  start = 'auto',
  on_attach = nil,
  capabilities = nil,
  -- Called with the server's answer after a rule was recorded.
  on_record = nil,
}

M.options = vim.deepcopy(defaults)

function M.notify(message, level)
  vim.notify('rulelens: ' .. message, level or vim.log.levels.INFO)
end

--- The rulelens clients attached to a buffer, on every supported version.
function M.clients(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr, name = M.name })
  end
  local out = {}
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if client.name == M.name then
      table.insert(out, client)
    end
  end
  return out
end

--- client:request on 0.11+, client.request before (the method form is the only one left later).
function M.request(client, method, params, handler, bufnr)
  if vim.fn.has('nvim-0.11') == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

--- The root markers in effect for a settings section: the rules folder first, as the server
--- and the CLI find the root (docs/format.md §1), then `.git`.
function M.markers_for(section)
  local folder = type(section) == 'table' and section.rulesFolder or nil
  if type(folder) ~= 'string' or vim.trim(folder) == '' then
    folder = M.default_rules_folder
  end
  return { (folder:gsub('^%./', ''):gsub('/+$', '')), '.git' }
end

--- The project root of a file: the nearest folder holding the first marker, then the next.
--- Hand-written because `vim.fs.root` (0.10+) takes the dirname of what it finds, which is
--- wrong for a marker with a slash such as `.ai/rules`; this works on 0.7 too.
function M.find_root(path, markers)
  markers = markers or M.options.root_markers or M.markers_for(M.options.settings)
  local stat = (vim.uv or vim.loop).fs_stat
  local dir = vim.fn.fnamemodify(path, ':p:h')
  for _, marker in ipairs(markers) do
    local current = dir
    while current and current ~= '' do
      if stat(current .. '/' .. marker) ~= nil then
        return current
      end
      local parent = vim.fn.fnamemodify(current, ':h')
      if parent == current then
        break
      end
      current = parent
    end
  end
  return nil
end

--- The client side of `rulelens.recordRule` (:help rulelens-record).
function M.record_command(command, ctx)
  return require('rulelens.record').command(command, ctx)
end

--- :RulelensRecord — pick one of the server's suggested globs (or type one), then prompt.
function M.record(bufnr)
  return require('rulelens.record').record(bufnr)
end

--- The rules of a buffer as quickfix items, from the server's `rulelens/rulesForPath`;
--- calls `on_items(items, answer)` (items nil when there is no answer).
function M.rules_items(bufnr, on_items)
  return require('rulelens.rules').items(bufnr, on_items)
end

--- :RulelensRules — the rules for the current buffer in the quickfix list or vim.ui.select.
function M.rules(how)
  return require('rulelens.rules').show(how or M.options.rules_list)
end

--- :RulelensVerify — run the installed agents for this buffer (rulelens.verify), into quickfix.
function M.verify(words)
  return require('rulelens.verify').run(words)
end

--- Define :RulelensRecord, :RulelensRules and :RulelensVerify (plugin/rulelens.lua calls this).
function M.user_commands()
  vim.api.nvim_create_user_command('RulelensRecord', function()
    M.record(0)
  end, { desc = 'Record a project rule for this file (.ai/rules)' })
  vim.api.nvim_create_user_command('RulelensRules', function(cmd)
    M.rules(cmd.args ~= '' and cmd.args or nil)
  end, {
    nargs = '?',
    complete = function()
      return { 'quickfix', 'select' }
    end,
    desc = 'List the project rules that apply to this buffer',
  })
  vim.api.nvim_create_user_command('RulelensVerify', function(cmd)
    M.verify(cmd.fargs)
  end, {
    nargs = '*',
    complete = function()
      return { 'read', 'edit', 'create', 'claude-code', 'copilot-cli', 'codex', 'gemini-cli', 'qwen-code' }
    end,
    desc = 'Run the installed agents on a scratch copy and compare what they load with the prediction',
  })
end

--- Configure and start rulelens. Safe to call again with new options.
function M.setup(opts)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  -- Client-side command handlers go here, never in a config's `commands`: nvim-lspconfig up
  -- to v1.4.0 reads `commands` as Ex-command definitions and fails on a function.
  vim.lsp.commands[M.record_rule] = M.record_command
  if M.options.user_commands then
    M.user_commands()
  end
  M.mode = require('rulelens.start').start(M.options)
  return M
end

return M
