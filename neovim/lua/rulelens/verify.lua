-- :RulelensVerify: the server's `rulelens.verify` (the installed agents run on a scratch copy
-- against a fake model; seconds per agent and path) for the buffer's file, in the quickfix
-- list: per agent and path a line, then each file rulelens predicts beside what the agent
-- sent, a difference as a warning ('!'), a run that could not finish as an error.

local rulelens = require('rulelens')

local M = {}

local NAMES = { ['claude-code'] = 'Claude Code', ['copilot-cli'] = 'Copilot CLI', codex = 'Codex',
  ['gemini-cli'] = 'Gemini CLI', ['qwen-code'] = 'Qwen Code' }

--- `:RulelensVerify [read|edit|create] [ID[=BINARY] ...]` into the command's argument.
function M.arguments(words, uri)
  local args = { uri = uri }
  local agents = {}
  for _, word in ipairs(words or {}) do
    if word == 'read' or word == 'edit' or word == 'create' then
      args.on = word
    elseif word ~= '' then
      table.insert(agents, word)
    end
  end
  if #agents > 0 then
    args.agents = agents
  end
  return args
end

--- Quickfix items for one answer (`rulelens verify --json`'s object). Unknown keys are ignored.
function M.to_items(result)
  local items = {}
  local root = type(result.root) == 'string' and result.root or ''
  for _, c in ipairs(result.cases or {}) do
    if type(c) == 'table' and type(c.path) == 'string' then
      local failed = type(c.error) == 'string'
      local state = failed and 'could not verify' or (c.agree and 'equal' or 'DIFFERS')
      table.insert(items, { filename = root .. '/' .. c.path, lnum = 1, col = 1,
        type = failed and 'E' or (c.agree and '' or 'W'),
        text = (NAMES[c.agent] or tostring(c.agent)) .. ' ' .. tostring(c.version) .. ': '
          .. c.path .. ': ' .. state .. (failed and (': ' .. c.error) or '') })
      for _, row in ipairs(c.rows or {}) do
        if type(row) == 'table' and type(row.file) == 'string' then
          local predicted = type(row.predicted) == 'string' and row.predicted or '-'
          local sent = type(row.sent) == 'string' and row.sent or '-'
          table.insert(items, { filename = root .. '/' .. row.file, lnum = 1, col = 1,
            type = row.differs and 'W' or '',
            text = (row.differs and '! ' or '  ') .. row.file .. ': predicted ' .. predicted
              .. ', sent ' .. sent })
        end
      end
    end
  end
  for _, line in ipairs(result.failures or {}) do
    table.insert(items, { text = tostring(line), type = 'E' })
  end
  if type(result.user_files) == 'table' and type(result.user_files.note) == 'string' then
    table.insert(items, { text = result.user_files.note })
  end
  return items
end

--- One sentence for the notification.
function M.summary(result)
  local ran, differ = 0, 0
  for _, c in ipairs(result.cases or {}) do
    if type(c) == 'table' and type(c.error) ~= 'string' then
      ran = ran + 1
      if not c.agree then
        differ = differ + 1
      end
    end
  end
  if differ > 0 then
    return differ .. ' of ' .. ran .. ' runs differ from the prediction'
  end
  if ran == 0 then
    return 'nothing could be verified'
  end
  return 'all ' .. ran .. ' runs sent exactly what rulelens predicts'
end

--- :RulelensVerify [read|edit|create] [ID[=BINARY] ...]
function M.run(words)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = rulelens.clients(bufnr)[1]
  if not client then
    return rulelens.notify('no rulelens language server is attached to this buffer', vim.log.levels.WARN)
  end
  local args = M.arguments(words, vim.uri_from_bufnr(bufnr))
  rulelens.notify('running the installed agents on a scratch copy…')
  local params = { command = rulelens.verify_command, arguments = { args } }
  rulelens.request(client, 'workspace/executeCommand', params, function(err, result)
    if err then
      return rulelens.notify(err.message or tostring(err), vim.log.levels.ERROR)
    end
    if type(result) ~= 'table' or type(result.error) == 'string' then
      local why = type(result) == 'table' and result.error or 'no answer'
      return rulelens.notify('verify failed: ' .. tostring(why), vim.log.levels.ERROR)
    end
    local summary = M.summary(result)
    vim.fn.setqflist({}, ' ', { title = 'rulelens verify: ' .. summary, items = M.to_items(result) })
    vim.cmd('copen')
    rulelens.notify('verify: ' .. summary, result.exit == 0 and vim.log.levels.INFO or vim.log.levels.WARN)
  end, bufnr)
end

return M
