-- Recording a rule from Neovim: the client side of `rulelens.recordRule` (ask for whatever of
-- glob, title and note is missing, then let the server record) and :RulelensRecord (pick one
-- of the server's suggested globs first). The server writes; this module only asks.

local rulelens = require('rulelens')

local M = {}

local function blank(value)
  return type(value) ~= 'string' or vim.trim(value) == ''
end

local function done(err, result)
  if err then
    rulelens.notify(err.message or tostring(err), vim.log.levels.ERROR)
    return
  end
  if type(result) == 'table' and result.error then
    rulelens.notify(result.error, vim.log.levels.ERROR)
    return
  end
  if type(result) == 'table' and result.message then
    rulelens.notify(result.message)
  end
  -- Neovim before 0.8 cannot take window/showDocument: open the new entry here instead.
  if type(result) == 'table' and result.uri and not vim.lsp.handlers['window/showDocument'] then
    vim.cmd('edit ' .. vim.fn.fnameescape(vim.uri_to_fname(result.uri)))
    if type(result.line) == 'number' then
      vim.api.nvim_win_set_cursor(0, { math.min(result.line, vim.api.nvim_buf_line_count(0)), 0 })
    end
  end
  if rulelens.options.on_record then
    rulelens.options.on_record(result)
  end
end

--- Ask, in order, for each of glob, title and note that is still blank (vim.ui.input), then
--- send `rulelens.recordRule` back to the server with all three.
function M.command(command, ctx)
  local first = ((command or {}).arguments or {})[1]
  local args = type(first) == 'table' and vim.deepcopy(first) or {}
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if not client then
    rulelens.notify('the language server is not running', vim.log.levels.ERROR)
    return
  end
  local questions = {
    { 'glob', function() return 'Glob (relative to the project root): ' end },
    { 'title', function() return 'Rule title for ' .. args.glob .. ': ' end },
    { 'note', function() return 'Rule note (what an agent must know): ' end },
  }
  local function ask(i)
    local question = questions[i]
    if not question then
      return rulelens.request(client, 'workspace/executeCommand',
        { command = rulelens.record_rule, arguments = { args } }, done, ctx.bufnr)
    end
    local field = question[1]
    if not blank(args[field]) then
      return ask(i + 1)
    end
    vim.ui.input({ prompt = question[2]() }, function(answer)
      if blank(answer) then
        return rulelens.notify('recording cancelled: a rule needs a ' .. field,
          vim.log.levels.WARN)
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
  if type(command) == 'table' and command.command == rulelens.record_rule then
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

local function count_label(glob, count)
  if type(count) ~= 'number' then
    return glob
  end
  return ('%s  (%d %s)'):format(glob, count, count == 1 and 'file' or 'files')
end

--- The choices for a document: `rulelens/suggestGlobs` with the root from
--- `rulelens/rulesForPath`; from the record code actions on a server without them.
local function choices_for(client, bufnr, uri, on_choices)
  local function from_actions()
    local origin = { line = 0, character = 0 }
    local params = {
      textDocument = { uri = uri },
      range = { start = origin, ['end'] = origin },
      context = { diagnostics = {}, only = { rulelens.record_kind } },
    }
    rulelens.request(client, 'textDocument/codeAction', params, function(err, actions)
      if err then
        return rulelens.notify(err.message or tostring(err), vim.log.levels.ERROR)
      end
      local choices = {}
      for _, action in ipairs(actions or {}) do
        local args = action_args(action)
        if args then
          table.insert(choices, { label = args.glob, args = args })
        end
      end
      on_choices(choices, { uri = uri })
    end, bufnr)
  end
  rulelens.request(client, rulelens.rules_for_path, { uri = uri }, function(_, answer)
    local base = { uri = uri }
    if type(answer) == 'table' and type(answer.rootUri) == 'string' then
      base.root = answer.rootUri
    end
    rulelens.request(client, rulelens.suggest_globs, { uri = uri }, function(err, result)
      if err or type(result) ~= 'table' or type(result.globs) ~= 'table' then
        return from_actions() -- a server from before rulelens/suggestGlobs
      end
      local choices = {}
      for _, item in ipairs(result.globs) do
        if type(item) == 'table' and not blank(item.glob) then
          local args = vim.tbl_extend('force', base, { glob = item.glob })
          table.insert(choices, { label = count_label(item.glob, item.count), args = args })
        end
      end
      on_choices(choices, base)
    end, bufnr)
  end, bufnr)
end

--- :RulelensRecord for a buffer.
function M.record(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local client = rulelens.clients(bufnr)[1]
  if not client then
    rulelens.notify('no rulelens language server is attached to this buffer',
      vim.log.levels.WARN)
    return
  end
  choices_for(client, bufnr, vim.uri_from_bufnr(bufnr), function(choices, base)
    table.insert(choices, { label = 'Another glob…', args = base })
    vim.ui.select(choices, {
      prompt = 'Record a project rule for:',
      format_item = function(item)
        return item.label
      end,
    }, function(choice)
      if choice then
        M.command({ command = rulelens.record_rule, arguments = { choice.args } },
          { client_id = client.id, bufnr = bufnr })
      end
    end)
  end)
end

return M
