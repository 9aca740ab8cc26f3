-- Headless Neovim driver for tests/editors/test_neovim.py.
--
--   nvim --headless -u nvim_driver.lua
--
-- Environment: RULELENS_PLUGIN (the neovim/ folder), RULELENS_PROJECT (the project root),
-- RULELENS_RESULT (where to write the JSON), RULELENS_NVIM_MODE (`enable`: the shipped
-- lsp/rulelens.lua with vim.lsp.enable; `setup`: require('rulelens').setup(); `setup:<start>`:
-- setup() with that `start` option), RULELENS_NVIM_STEPS (comma-separated steps, in order),
-- RULELENS_NVIM_ENCODING (optional: offer only this position encoding),
-- RULELENS_NVIM_SETTINGS (optional JSON: the server's `rulelens` section),
-- RULELENS_NVIM_CMD (optional JSON list: the server command), RULELENS_LSPCONFIG (optional:
-- an nvim-lspconfig folder to put on the runtimepath). Only APIs that exist on Neovim 0.7
-- are used.
--
-- The runtimepath is set here, before Neovim loads plugins, as a person's init.lua does: so
-- plugin/rulelens.lua (and nvim-lspconfig's plugin/) load as they would for them.
local env = vim.env
vim.opt.runtimepath:prepend(env.RULELENS_PLUGIN)
if env.RULELENS_LSPCONFIG and env.RULELENS_LSPCONFIG ~= '' then
  vim.opt.runtimepath:append(env.RULELENS_LSPCONFIG)
end

local function from_json(name)
  local text = env[name]
  if text == nil or text == '' then
    return nil
  end
  return vim.fn.json_decode(text)
end
local root = env.RULELENS_PROJECT
local result = { prompts = {}, selections = {}, steps = {} }
local answers = {} -- queued answers for vim.ui.input
local chooser = function(_) return nil end -- picks an item in vim.ui.select

local function wait(what, condition)
  if not vim.wait(60000, condition, 50) then
    error('timed out waiting for ' .. what)
  end
end

local function clients()
  return require('rulelens').clients(0)
end

local function read_file(rel)
  local f = io.open(root .. '/' .. rel, 'rb')
  if not f then
    return nil
  end
  local text = f:read('*a')
  f:close()
  return text
end

local function rulelens_diagnostics(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr or 0)) do
    if d.source == 'rulelens' then
      local lsp = (d.user_data or {}).lsp or {}
      local related = {}
      for _, info in ipairs(lsp.relatedInformation or {}) do
        table.insert(related, { uri = info.location.uri, line = info.location.range.start.line,
          message = info.message })
      end
      table.insert(out, { message = d.message, source = d.source, severity = d.severity,
        code = d.code or lsp.code, lnum = d.lnum, col = d.col, end_lnum = d.end_lnum,
        end_col = d.end_col, related = related })
    end
  end
  return out
end

local function open(rel)
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/' .. rel))
  wait('rulelens to attach to ' .. rel, function()
    local c = clients()[1]
    return c ~= nil and c.initialized ~= false and c.server_capabilities ~= nil
  end)
end

local function floats()
  local out = {}
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      table.insert(out, win)
    end
  end
  return out
end

--- Hover at the cursor through the real UI (vim.lsp.buf.hover) and return the float's text.
--- Run :RulelensRules on a cleared quickfix list; the list it fills.
local function rulelens_rules()
  vim.fn.setqflist({}, 'f')
  vim.cmd('RulelensRules')
  wait('the quickfix list', function()
    return vim.fn.getqflist({ title = 0 }).title:find('rulelens', 1, true) ~= nil
  end)
  return vim.fn.getqflist()
end

local function hover_text()
  for _, win in ipairs(floats()) do
    vim.api.nvim_win_close(win, true)
  end
  vim.lsp.buf.hover()
  wait('the hover window', function()
    return #floats() > 0
  end)
  local win = floats()[1]
  local lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false)
  vim.api.nvim_win_close(win, true)
  return table.concat(lines, '\n')
end

local steps = {}

function steps.source()
  open('app/Models/User.php')
  wait('the rules diagnostic', function()
    return #rulelens_diagnostics(0) > 0
  end)
  local client = clients()[1]
  result.source = {
    filetype = vim.bo.filetype,
    offset_encoding = client.offset_encoding,
    diagnostics = rulelens_diagnostics(0),
  }
end

function steps.hover()
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  result.hover = hover_text()
end

--- The nine-agent project: hover a source file no Boost rule covers but every other agent
--- loads files for (the "In other agents" section), then :RulelensRules lists those files.
function steps.agents_hover()
  open('src/api/users.ts')
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  local hover = hover_text()
  local qf = rulelens_rules()
  local items = {}
  for _, item in ipairs(qf) do
    table.insert(items, item.text)
  end
  vim.cmd('cclose')
  result.agents_hover = { hover = hover, rules = items }
end

function steps.utf8()
  open('.ai/rules/docs.md')
  wait('the glob diagnostics of docs.md', function()
    local n = 0
    for _, d in ipairs(rulelens_diagnostics(0)) do
      if d.code == 'glob-matches-nothing' then
        n = n + 1
      end
    end
    return n >= 2
  end)
  local out = { offset_encoding = clients()[1].offset_encoding, globs = {} }
  for _, d in ipairs(rulelens_diagnostics(0)) do
    if d.code == 'glob-matches-nothing' then
      local line = vim.api.nvim_buf_get_lines(0, d.lnum, d.lnum + 1, false)[1]
      table.insert(out.globs, { lnum = d.lnum, col = d.col, end_col = d.end_col, line = line,
        text = line:sub(d.col + 1, d.end_col), message = d.message })
    end
  end
  -- hover with the cursor inside the second glob: the client converts the byte column
  local line = vim.api.nvim_buf_get_lines(0, 1, 2, false)[1]
  local at = line:find('größe', 1, true)
  vim.api.nvim_win_set_cursor(0, { 2, at - 1 })
  out.hover = hover_text()
  result.utf8 = out
end

function steps.empty_filetype()
  open('app/Models/NOTES')
  wait('the rules diagnostic on a buffer without a filetype', function()
    return #rulelens_diagnostics(0) > 0
  end)
  result.empty_filetype = { filetype = vim.bo.filetype, diagnostics = rulelens_diagnostics(0) }
end

function steps.rules()
  open('app/Models/User.php')
  wait('the rules diagnostic', function()
    return #rulelens_diagnostics(0) > 0
  end)
  local source = vim.api.nvim_get_current_buf()
  local qf = rulelens_rules()
  local title = vim.fn.getqflist({ title = 0 }).title
  local items = {}
  for _, item in ipairs(qf) do
    table.insert(items, { file = vim.api.nvim_buf_get_name(item.bufnr), lnum = item.lnum,
      text = item.text, type = item.type })
  end
  vim.cmd('cclose')
  vim.api.nvim_set_current_buf(source)
  local picked
  chooser = function(labels)
    picked = labels
    return nil
  end
  vim.cmd('RulelensRules select')
  wait('the rules to pick from', function()
    return picked ~= nil
  end)
  result.rules = { quickfix = items, select = picked, title = title }
end

--- :RulelensVerify with the agent named in RULELENS_VERIFY_AGENT (`ID=BINARY`): the quickfix
--- list it fills when the server's rulelens.verify answers.
function steps.verify()
  open('app/Models/User.php')
  vim.cmd('RulelensVerify ' .. env.RULELENS_VERIFY_AGENT)
  if not vim.wait(300000, function()
    return vim.startswith(vim.fn.getqflist({ title = 0 }).title, 'rulelens verify')
  end, 100) then
    error('timed out waiting for :RulelensVerify')
  end
  local items = {}
  for _, item in ipairs(vim.fn.getqflist()) do
    local name = item.bufnr ~= 0 and vim.api.nvim_buf_get_name(item.bufnr) or ''
    table.insert(items, { file = name, text = item.text, type = item.type })
  end
  result.verify = { title = vim.fn.getqflist({ title = 0 }).title, items = items }
end

--- :RulelensRules with the diagnostic switched off (severity = 'off'): facts, not text.
function steps.rules_quiet()
  open('app/Models/User.php')
  -- a server may publish once before the settings reach it; list when there is none
  wait('no rules diagnostic', function()
    return #rulelens_diagnostics(0) == 0
  end)
  local before = rulelens_diagnostics(0)
  local qf = rulelens_rules()
  local items = {}
  for _, item in ipairs(qf) do
    table.insert(items, { file = vim.api.nvim_buf_get_name(item.bufnr), lnum = item.lnum,
      text = item.text })
  end
  vim.cmd('cclose')
  result.rules_quiet = { quickfix = items, diagnostics = before }
end

--- :RulelensRules where one rule file is missing from the index (agents miss it).
function steps.rules_missed()
  open('app/Models/User.php')
  local qf = rulelens_rules()
  local items = {}
  for _, item in ipairs(qf) do
    table.insert(items, { file = vim.api.nvim_buf_get_name(item.bufnr), lnum = item.lnum,
      text = item.text, type = item.type })
  end
  vim.cmd('cclose')
  result.rules_missed = items
end

--- :checkhealth before any server runs: it reads vim.lsp.config.rulelens.
function steps.health_idle()
  vim.cmd('checkhealth rulelens')
  result.health_idle = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  vim.cmd('bwipeout!')
end

function steps.health()
  open('app/Models/User.php')
  local source = vim.api.nvim_get_current_buf()
  vim.cmd('checkhealth rulelens')
  result.health = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  vim.cmd('bwipeout!')
  if vim.api.nvim_get_current_buf() ~= source then
    vim.api.nvim_set_current_buf(source)
  end
end

--- Record through the code action menu (vim.lsp.buf.code_action), answering the prompts.
function steps.record_action()
  open('app/Models/User.php')
  local titles
  chooser = function(labels)
    titles = labels
    for i, label in ipairs(labels) do
      if label:find('app/Models/*.php', 1, true) then
        return i
      end
    end
  end
  answers = { 'Prices in € are cents', 'Format 12,50 € only in views;\nnever store the string.' }
  local before = read_file('.ai/rules/index.md')
  vim.lsp.buf.code_action()
  wait('the code action menu', function()
    return titles ~= nil
  end)
  wait('the rule to be written', function()
    local text = read_file('.ai/rules/models.md') or ''
    return text:find('Prices in € are cents', 1, true) ~= nil
      and read_file('.ai/rules/index.md') ~= before
  end)
  wait('the rule file to be shown', function()
    return vim.api.nvim_buf_get_name(0):match('models%.md$') ~= nil
  end)
  result.record_action = {
    titles = titles,
    shown = vim.api.nvim_buf_get_name(0),
    cursor = vim.api.nvim_win_get_cursor(0),
  }
end

--- Record through :RulelensRecord, typing a glob of our own.
function steps.record_command()
  open('app/Models/User.php')
  local choices
  chooser = function(labels)
    choices = labels
    return #labels -- "Another glob…"
  end
  answers = { 'resources/views/**', 'Views escape output', 'Use {{ }}, never {!! !!}.' }
  vim.cmd('RulelensRecord')
  -- the server writes the rule file, then the index: wait for both, or the test reads an
  -- index one write behind
  wait('the new rule file and its index row', function()
    return (read_file('.ai/rules/views.md') or ''):find('Views escape output', 1, true) ~= nil
      and (read_file('.ai/rules/index.md') or ''):find('.ai/rules/views.md', 1, true) ~= nil
  end)
  result.record_command = { choices = choices }
end

--- The root the client was started with (root markers, rulesFolder).
function steps.root()
  open(env.RULELENS_NVIM_OPEN or 'app/Models/User.php')
  wait('the rules diagnostic', function()
    return #rulelens_diagnostics(0) > 0
  end)
  result.root = { root_dir = clients()[1].config.root_dir, diagnostics = rulelens_diagnostics(0) }
end

local function run()
  local capabilities = nil
  if env.RULELENS_NVIM_ENCODING and env.RULELENS_NVIM_ENCODING ~= '' then
    capabilities = vim.lsp.protocol.make_client_capabilities()
    capabilities.general = capabilities.general or {}
    capabilities.general.positionEncodings = { env.RULELENS_NVIM_ENCODING }
    capabilities.offsetEncoding = { env.RULELENS_NVIM_ENCODING }
  end
  vim.ui.input = function(opts, on_confirm)
    table.insert(result.prompts, opts.prompt)
    on_confirm(table.remove(answers, 1))
  end
  vim.ui.select = function(items, opts, on_choice)
    local labels = {}
    for i, item in ipairs(items) do
      labels[i] = opts.format_item and opts.format_item(item) or tostring(item)
    end
    table.insert(result.selections, { prompt = opts.prompt, items = labels })
    local index = chooser(labels)
    on_choice(index and items[index] or nil, index)
  end
  local settings = from_json('RULELENS_NVIM_SETTINGS')
  local cmd = from_json('RULELENS_NVIM_CMD')
  local mode = env.RULELENS_NVIM_MODE
  if mode == 'enable' then
    local config = { capabilities = capabilities, cmd = cmd }
    if settings then
      config.settings = { rulelens = settings }
    end
    if next(config) then
      vim.lsp.config('rulelens', config)
    end
    vim.lsp.enable('rulelens')
  else
    -- `setup` or `setup:<start>` (the plugin's `start` option)
    local how = mode:match('^setup:(.+)$') or 'auto'
    require('rulelens').setup({ capabilities = capabilities, start = how, cmd = cmd,
      settings = settings })
  end
  result.commands = {
    RulelensRecord = vim.fn.exists(':RulelensRecord') == 2,
    RulelensRules = vim.fn.exists(':RulelensRules') == 2,
    RulelensVerify = vim.fn.exists(':RulelensVerify') == 2,
  }
  result.version = tostring(vim.version().major) .. '.' .. tostring(vim.version().minor)
    .. '.' .. tostring(vim.version().patch)
  result.mode = mode
  result.plugin_mode = require('rulelens').mode
  for name in string.gmatch(env.RULELENS_NVIM_STEPS, '[^,]+') do
    steps[name]()
    table.insert(result.steps, name)
  end
end

local function finish()
  local ok, err = xpcall(run, debug.traceback)
  if not ok then
    result.error = err
  end
  local messages = vim.api.nvim_exec('messages', true)
  result.messages = messages
  vim.fn.writefile({ vim.fn.json_encode(result) }, env.RULELENS_RESULT)
  vim.cmd('qall!')
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = function()
    vim.schedule(finish)
  end,
})
