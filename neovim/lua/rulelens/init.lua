-- rulelens for Neovim: start the language server on every file, prompt for recorded rules,
-- and list the rules that apply to a buffer. See `:help rulelens`.
--
-- Works on Neovim 0.7 and later: `vim.lsp.enable` on 0.11+, nvim-lspconfig's legacy
-- `lspconfig.configs` where an older nvim-lspconfig is installed, else `vim.lsp.start`
-- (0.8-0.10) or `vim.lsp.start_client` (0.7). Only APIs that exist on 0.7 are used outside
-- the branches that check for them.

local M = {}

M.name = 'rulelens'
M.record_rule = 'rulelens.recordRule'
M.record_kind = 'source.rulelens.record'
M.rules_code = 'rules-apply'

local defaults = {
  cmd = { 'rulelens', 'serve' },
  root_markers = { '.ai', '.git' },
  -- The server's `rulelens` section (:help rulelens-settings).
  settings = {},
  -- Also attach to buffers whose filetype is empty (`vim.lsp.enable` skips them).
  empty_filetype = true,
  -- 'quickfix' or 'select': how :RulelensRules shows the rules.
  rules_list = 'quickfix',
  -- Define :RulelensRecord and :RulelensRules.
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

local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

local function notify(message, level)
  vim.notify('rulelens: ' .. message, level or vim.log.levels.INFO)
end

local function blank(value)
  return type(value) ~= 'string' or vim.trim(value) == ''
end

--- client:request on 0.11+, client.request before (the method form is the only one left later).
local function request(client, method, params, handler, bufnr)
  if has('0.11') then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
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

local function exists(path)
  return (vim.loop or vim.uv).fs_stat(path) ~= nil
end

--- The project root of a file: the nearest folder holding the first marker, then the next.
--- (`vim.fs.root` does this on 0.10+; this works on 0.7 too.)
function M.find_root(path, markers)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  for _, marker in ipairs(markers or M.options.root_markers) do
    local current = dir
    while current and current ~= '' do
      if exists(current .. '/' .. marker) then
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

-- -- recording ----------------------------------------------------------------------------

local function record_done(err, result)
  if err then
    notify(err.message or tostring(err), vim.log.levels.ERROR)
    return
  end
  if type(result) == 'table' and result.error then
    notify(result.error, vim.log.levels.ERROR)
    return
  end
  if type(result) == 'table' and result.message then
    notify(result.message)
  end
  -- Neovim before 0.8 cannot take window/showDocument: open the new entry here instead.
  if type(result) == 'table' and result.uri and not vim.lsp.handlers['window/showDocument'] then
    vim.cmd('edit ' .. vim.fn.fnameescape(vim.uri_to_fname(result.uri)))
    if type(result.line) == 'number' then
      vim.api.nvim_win_set_cursor(0, { math.min(result.line, vim.api.nvim_buf_line_count(0)), 0 })
    end
  end
  if M.options.on_record then
    M.options.on_record(result)
  end
end

--- The client side of `rulelens.recordRule`: ask for whatever of glob, title and note is
--- missing (vim.ui.input), then send the command back to the server with all three.
function M.record_command(command, ctx)
  local first = ((command or {}).arguments or {})[1]
  local args = type(first) == 'table' and vim.deepcopy(first) or {}
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if not client then
    notify('the language server is not running', vim.log.levels.ERROR)
    return
  end
  -- Ask, in order, for each field that is still blank; then send all three back.
  local questions = {
    { 'glob', function() return 'Glob (relative to the project root): ' end },
    { 'title', function() return 'Rule title for ' .. args.glob .. ': ' end },
    { 'note', function() return 'Rule note (what an agent must know): ' end },
  }
  local function ask(i)
    local question = questions[i]
    if not question then
      return request(client, 'workspace/executeCommand',
        { command = M.record_rule, arguments = { args } }, record_done, ctx.bufnr)
    end
    local field = question[1]
    if not blank(args[field]) then
      return ask(i + 1)
    end
    vim.ui.input({ prompt = question[2]() }, function(answer)
      if blank(answer) then
        return notify('recording cancelled: a rule needs a ' .. field, vim.log.levels.WARN)
      end
      args[field] = answer
      ask(i + 1)
    end)
  end
  ask(1)
end

--- The record arguments of one code action (a Command, or an action with a command or data).
local function action_args(action)
  local command = action.command
  if type(command) == 'string' then
    command = action
  end
  if type(command) == 'table' and command.command == M.record_rule then
    local first = (command.arguments or {})[1]
    if type(first) == 'table' and not blank(first.glob) then
      return first
    end
  end
  if type(action.data) == 'table' and not blank(action.data.glob) then
    return action.data
  end
  return nil
end

--- :RulelensRecord — pick one of the server's suggested globs (or type one), then prompt.
function M.record(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = M.clients(bufnr)[1]
  if not client then
    notify('no rulelens language server is attached to this buffer', vim.log.levels.WARN)
    return
  end
  local origin = { line = 0, character = 0 }
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = origin, ['end'] = origin },
    context = { diagnostics = {}, only = { M.record_kind } },
  }
  request(client, 'textDocument/codeAction', params, function(err, actions)
    if err then
      return notify(err.message or tostring(err), vim.log.levels.ERROR)
    end
    local choices = {}
    for _, action in ipairs(actions or {}) do
      local args = action_args(action)
      if args then
        table.insert(choices, { label = args.glob, args = args })
      end
    end
    table.insert(choices, { label = 'Another glob…', args = { uri = params.textDocument.uri } })
    vim.ui.select(choices, {
      prompt = 'Record a project rule for:',
      format_item = function(item)
        return item.label
      end,
    }, function(choice)
      if choice then
        M.record_command({ command = M.record_rule, arguments = { choice.args } },
          { client_id = client.id, bufnr = bufnr })
      end
    end)
  end, bufnr)
end

-- -- listing --------------------------------------------------------------------------------

--- The rule files and entries that apply to a buffer, as quickfix items, from the server's
--- rules diagnostic (its related information points at each rule file and entry).
function M.rules_items(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local items = {}
  for _, diagnostic in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = (diagnostic.user_data or {}).lsp or {}
    local code = diagnostic.code or lsp.code
    if diagnostic.source == M.name and code == M.rules_code then
      for _, info in ipairs(lsp.relatedInformation or {}) do
        table.insert(items, {
          filename = vim.uri_to_fname(info.location.uri),
          lnum = info.location.range.start.line + 1,
          col = 1,
          text = info.message,
        })
      end
    end
  end
  return items
end

--- :RulelensRules — the rules for the current buffer in the quickfix list or vim.ui.select.
function M.rules(how)
  how = how or M.options.rules_list
  local items = M.rules_items(0)
  if #items == 0 then
    return notify('no project rules apply to this buffer')
  end
  if how == 'select' then
    vim.ui.select(items, {
      prompt = 'Project rules for this file:',
      format_item = function(item)
        return item.text
      end,
    }, function(item)
      if item then
        vim.cmd('edit ' .. vim.fn.fnameescape(item.filename))
        vim.api.nvim_win_set_cursor(0, { item.lnum, 0 })
      end
    end)
    return
  end
  vim.fn.setqflist({}, ' ', { title = 'rulelens: project rules', items = items })
  vim.cmd('copen')
end

-- -- starting the server ----------------------------------------------------------------------

local function settings_section()
  local section = vim.deepcopy(M.options.settings or {})
  if section.prompt == nil then
    section.prompt = true -- this plugin prompts for the title and note
  end
  return section
end

local function client_config(root)
  local section = settings_section()
  return {
    name = M.name,
    cmd = M.options.cmd,
    root_dir = root,
    settings = { rulelens = section },
    init_options = { rulelens = section },
    commands = { [M.record_rule] = M.record_command },
    on_attach = M.options.on_attach,
    capabilities = M.options.capabilities,
  }
end

local started = {} -- root -> client id, for Neovim 0.7's start_client
local use_start_client = false

local function real_file(bufnr)
  return vim.api.nvim_buf_is_valid(bufnr) and vim.bo[bufnr].buftype == ''
    and vim.api.nvim_buf_get_name(bufnr) ~= ''
end

--- Attach a buffer on Neovim < 0.11 without nvim-lspconfig.
local function start_legacy(bufnr)
  if not real_file(bufnr) then
    return
  end
  local root = M.find_root(vim.api.nvim_buf_get_name(bufnr), M.options.root_markers)
  if not root then
    return -- rules live in a project; no server for files outside every project
  end
  local config = client_config(root)
  if not use_start_client then
    vim.api.nvim_buf_call(bufnr, function()
      vim.lsp.start(config)
    end)
    return
  end
  local id = started[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    id = vim.lsp.start_client(config)
    started[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

--- On 0.11+: start the enabled config for a buffer that has no filetype.
local function start_empty_filetype(bufnr)
  if not real_file(bufnr) or vim.bo[bufnr].filetype ~= '' or not vim.lsp.is_enabled(M.name) then
    return
  end
  local config = vim.deepcopy(vim.lsp.config[M.name])
  if type(config.root_dir) == 'function' then
    config.root_dir(bufnr, function(dir)
      config.root_dir = dir
      vim.schedule(function()
        vim.lsp.start(config, { bufnr = bufnr })
      end)
    end)
    return
  end
  config.root_dir = config.root_dir or vim.fs.root(bufnr, config.root_markers or {})
  if config.root_dir then
    vim.lsp.start(config, { bufnr = bufnr })
  end
end

local function each_buffer_and_later(start)
  local group = vim.api.nvim_create_augroup('rulelens', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
    group = group,
    callback = function(event)
      -- after filetype detection and the other BufRead autocommands
      vim.schedule(function()
        start(event.buf)
      end)
    end,
  })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      start(bufnr)
    end
  end
end

local function setup_lspconfig()
  local ok, configs = pcall(require, 'lspconfig.configs')
  if not ok then
    return false
  end
  if not configs[M.name] then
    configs[M.name] = {
      default_config = {
        cmd = M.options.cmd,
        -- no filetypes: lspconfig then attaches on every BufReadPost, empty filetypes too
        -- the markers in order of preference (util.root_pattern would take the nearest of any)
        root_dir = function(fname)
          return M.find_root(fname, M.options.root_markers)
        end,
        settings = { rulelens = {} },
      },
      docs = { description = 'rulelens: the project rules (.ai/rules) your AI agent sees.' },
    }
  end
  local config = client_config(nil)
  config.name, config.cmd, config.root_dir = nil, M.options.cmd, nil
  require('lspconfig')[M.name].setup(config)
  return true
end

local function user_commands()
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
end

--- Configure and start rulelens. Safe to call again with new options.
function M.setup(opts)
  M.options = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  vim.lsp.commands[M.record_rule] = M.record_command
  if M.options.user_commands then
    user_commands()
  end
  local how = M.options.start
  if how == 'auto' then
    if vim.lsp.config and vim.lsp.enable then
      how = 'enable'
    elseif M.options.lspconfig and pcall(require, 'lspconfig.configs') then
      how = 'lspconfig'
    else
      how = vim.lsp.start and 'start' or 'start_client'
    end
  end
  if how == 'enable' then
    local config = client_config(nil)
    config.name, config.root_dir = nil, nil
    config.root_markers = M.options.root_markers
    config.workspace_required = true
    vim.lsp.config(M.name, config)
    vim.lsp.enable(M.name)
    if M.options.empty_filetype then
      each_buffer_and_later(start_empty_filetype)
    end
  elseif how == 'lspconfig' then
    if not setup_lspconfig() then
      error('rulelens: start = "lspconfig" but nvim-lspconfig is not installed')
    end
  elseif how == 'start' or how == 'start_client' then
    use_start_client = how == 'start_client' or not vim.lsp.start
    each_buffer_and_later(start_legacy)
  else
    error('rulelens: start must be auto, enable, lspconfig, start or start_client: ' .. tostring(how))
  end
  M.mode = how
  return M
end

return M
