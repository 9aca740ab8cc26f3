-- :checkhealth rulelens — does the server the running configuration names start, and with
-- which root markers and rules folder? It reads the configuration in effect (the running
-- clients' config, else `vim.lsp.config.rulelens`, else setup()'s options), not defaults.

local M = {}

local health = vim.health or require('health')
local start = health.start or health.report_start
local ok = health.ok or health.report_ok
local warn = health.warn or health.report_warn
local error = health.error or health.report_error
local info = health.info or health.report_info

local function running()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ name = 'rulelens' })
  end
  return vim.tbl_filter(function(c)
    return c.name == 'rulelens'
  end, vim.lsp.get_active_clients())
end

--- The configuration in effect and where it comes from.
local function effective(rulelens, clients)
  if clients[1] then
    return clients[1].config, 'the running client'
  end
  if vim.lsp.config and vim.lsp.is_enabled and vim.lsp.is_enabled('rulelens') then
    return vim.lsp.config.rulelens or {}, 'vim.lsp.config.rulelens'
  end
  local options = rulelens.options
  return { cmd = options.cmd, root_markers = options.root_markers,
    settings = { rulelens = options.settings } }, 'setup() options'
end

local function check_cmd(cmd)
  if type(cmd) ~= 'table' or type(cmd[1]) ~= 'string' then
    info('`cmd` is ' .. type(cmd) .. ': cannot check that it runs')
    return
  end
  local exe = cmd[1]
  if vim.fn.executable(exe) ~= 1 then
    error(('`%s` is not on PATH'):format(exe),
      { 'Install rulelens (pipx install /path/to/rulelens), or set `cmd`' })
    return
  end
  local version = vim.fn.system({ exe, '--version' })
  if vim.v.shell_error == 0 then
    ok(('`%s` runs: %s'):format(exe, vim.trim(version)))
  else
    warn(('`%s --version` failed: %s'):format(exe, vim.trim(version)))
  end
end

function M.check()
  start('rulelens')
  local rulelens = require('rulelens')
  local clients = running()
  local config, source = effective(rulelens, clients)
  info('configuration from ' .. source)
  check_cmd(config.cmd)
  local section = (config.settings or {}).rulelens or {}
  local folder = type(section.rulesFolder) == 'string' and section.rulesFolder
    or rulelens.default_rules_folder
  info('rules folder: ' .. folder)
  local markers = config.root_markers or (rulelens.mode and require('rulelens.start').markers())
    or rulelens.markers_for(section)
  info('root markers: ' .. table.concat(markers, ', '))
  if rulelens.mode then
    ok('started by setup() through: ' .. rulelens.mode)
  elseif vim.lsp.is_enabled and vim.lsp.is_enabled('rulelens') then
    ok('enabled with vim.lsp.enable()')
  elseif not clients[1] then
    info('not set up: call vim.lsp.enable("rulelens") or require("rulelens").setup()')
  end
  for _, client in ipairs(clients) do
    ok(('server running for %s (%s positions)'):format(
      tostring(client.config.root_dir), tostring(client.offset_encoding)))
  end
  if #clients == 0 then
    info('no rulelens server is running (open a file in a project with ' .. folder .. ')')
  end
end

return M
