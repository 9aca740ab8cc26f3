-- :checkhealth rulelens — is the server installed, and how is the plugin starting it?

local M = {}

local health = vim.health or require('health')
local start = health.start or health.report_start
local ok = health.ok or health.report_ok
local warn = health.warn or health.report_warn
local error = health.error or health.report_error
local info = health.info or health.report_info

function M.check()
  start('rulelens')
  local rulelens = require('rulelens')
  local cmd = rulelens.options.cmd
  if vim.fn.executable(cmd[1]) == 1 then
    local version = vim.fn.system({ cmd[1], '--version' })
    if vim.v.shell_error == 0 then
      ok(('`%s` runs: %s'):format(cmd[1], vim.trim(version)))
    else
      warn(('`%s --version` failed: %s'):format(cmd[1], vim.trim(version)))
    end
  else
    error(('`%s` is not on PATH'):format(cmd[1]),
      { 'Install rulelens (pipx install /path/to/rulelens), or set `cmd` in setup()' })
  end
  if rulelens.mode then
    ok('started by setup() through: ' .. rulelens.mode)
  elseif vim.lsp.is_enabled and vim.lsp.is_enabled('rulelens') then
    ok('enabled with vim.lsp.enable()')
  else
    info('not set up: call vim.lsp.enable("rulelens") or require("rulelens").setup()')
  end
  local all = vim.lsp.get_clients and vim.lsp.get_clients({ name = 'rulelens' })
    or vim.tbl_filter(function(c)
      return c.name == 'rulelens'
    end, vim.lsp.get_active_clients())
  for _, client in ipairs(all) do
    ok(('server running for %s (%s positions)'):format(
      tostring(client.config.root_dir), tostring(client.offset_encoding)))
  end
  if #all == 0 then
    info('no rulelens server is running (open a file in a project with .ai/rules)')
  end
end

return M
