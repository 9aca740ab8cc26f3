-- :RulelensRules: the rule files and entries that apply to a buffer, from the server's
-- `rulelens/rulesForPath` answer (facts, not the diagnostic's text: the list is the same
-- with the diagnostic switched off).

local rulelens = require('rulelens')

local M = {}

local NOT_CONFIRMED = ' (probably: documented behaviour not confirmed)'

local function how(load)
  if load.how == 'glob' and type(load.patterns) == 'table' and #load.patterns > 0 then
    return table.concat(load.patterns, ', ')
  end
  return load.how == 'directory' and 'folder chain' or tostring(load.how)
end

--- Why a file loads; for one another imports with `@path`, the importing file and line too.
local function why(load)
  if type(load.importedBy) == 'string' then
    return how(load) .. ', imported by ' .. load.importedBy
  end
  return how(load)
end

--- Items for what the other agents load (`answer.agents`, a list; absent from older servers,
--- and anything of another shape is skipped): per file that loads, "Agent: file (why)".
function M.agent_items(answer)
  local items = {}
  local agents = answer.agents
  if type(agents) ~= 'table' then
    return items
  end
  for _, agent in ipairs(agents) do
    if type(agent) == 'table' and type(agent.name) == 'string' and type(agent.loads) == 'table' then
      for i, load in ipairs(agent.loads) do
        if type(load) == 'table' and type(load.file) == 'string' and type(load.uri) == 'string' then
          local note = ''
          if i == 1 and type(agent.confirmedIn) == 'string' then
            note = ' (confirmed in ' .. agent.confirmedIn .. ')'
          elseif i == 1 and type(agent.matcherConfirmedIn) == 'string' then
            note = ' (matcher confirmed in ' .. agent.matcherConfirmedIn .. ')'
          elseif i == 1 and agent.confirmed == false then
            note = NOT_CONFIRMED
          end
          table.insert(items, { filename = vim.uri_to_fname(load.uri), lnum = 1, col = 1,
            text = agent.name .. ': ' .. load.file .. ' (' .. why(load) .. ')' .. note })
        end
      end
    end
  end
  return items
end

--- Quickfix items for one `rulelens/rulesForPath` answer: per rule file one item at its
--- heading, one more when agents miss the file (with the reason, which says how to fix it),
--- then one per entry; then the files other agents load (M.agent_items). Unknown keys are
--- ignored; a missing `agentsSee` counts as seen.
function M.to_items(answer)
  local items = {}
  for _, rule in ipairs(answer.rules or {}) do
    local filename = vim.uri_to_fname(rule.uri)
    local heading = type(rule.title) == 'string' and rule.title or nil
    local label = rule.file .. (heading and (' — ' .. heading) or '')
    if type(rule.globs) == 'table' and #rule.globs > 0 then
      label = label .. ' (' .. table.concat(rule.globs, ', ') .. ')'
    end
    table.insert(items, { filename = filename, lnum = rule.line or 1, col = 1, text = label })
    if rule.agentsSee == false then
      local why = type(rule.agentsMissBecause) == 'string' and rule.agentsMissBecause
        or 'the index does not list this file'
      table.insert(items, { filename = filename, lnum = rule.line or 1, col = 1, type = 'W',
        text = rule.file .. ': agents miss it: ' .. why })
    end
    for _, entry in ipairs(rule.entries or {}) do
      table.insert(items, { filename = filename, lnum = entry.line, col = 1,
        text = (heading or rule.file) .. ': ' .. entry.title })
    end
  end
  for _, item in ipairs(M.agent_items(answer)) do
    table.insert(items, item)
  end
  return items
end

--- Ask the server for a buffer's rules; `on_items(items, answer)`, items nil when the server
--- has no answer (the error was already shown).
function M.items(bufnr, on_items)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = rulelens.clients(bufnr)[1]
  if not client then
    rulelens.notify('no rulelens language server is attached to this buffer',
      vim.log.levels.WARN)
    return on_items(nil, nil)
  end
  local uri = vim.uri_from_bufnr(bufnr)
  rulelens.request(client, rulelens.rules_for_path, { uri = uri }, function(err, answer)
    if err then
      rulelens.notify(err.message or tostring(err), vim.log.levels.ERROR)
      return on_items(nil, nil)
    end
    if type(answer) ~= 'table' then
      rulelens.notify('this file is outside every rulelens project')
      return on_items(nil, nil)
    end
    on_items(M.to_items(answer), answer)
  end, bufnr)
end

local function pick(items)
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
end

--- :RulelensRules [quickfix|select]
function M.show(how)
  M.items(0, function(items, answer)
    if not items then
      return
    end
    if #items == 0 then
      return rulelens.notify('no project rules apply to ' .. tostring(answer.path)
        .. ', and no other agent loads a file for it')
    end
    if how == 'select' then
      return pick(items)
    end
    local title = 'rulelens: project rules for ' .. tostring(answer.path)
    vim.fn.setqflist({}, ' ', { title = title, items = items })
    vim.cmd('copen')
  end)
end

return M
