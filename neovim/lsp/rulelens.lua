-- rulelens: shows the project's AI-agent rules (.ai/rules/*.md) for the file you edit.
--
-- nvim-lspconfig's `lsp/<name>.lua` format, for Neovim 0.11+: put this folder on the
-- runtimepath (or copy this file into your config's `lsp/` folder) and call
--
--   vim.lsp.enable('rulelens')
--
-- There are no `filetypes`: rules apply to every kind of file, so the server attaches to all
-- of them. `vim.lsp.enable` never attaches to buffers without a filetype; the plugin's
-- `require('rulelens').setup()` does. See `:help rulelens`.

--- The project root: the nearest folder holding the rules folder (the `rulesFolder` setting
--- in effect, `.ai/rules` by default), else the nearest git work tree, as the server finds
--- it; `root_markers` set with vim.lsp.config replace both. A function, because vim.fs.root
--- takes the dirname of what it finds, which is wrong for a marker with a slash.
local function root_dir(bufnr, on_dir)
  local config = vim.lsp.config.rulelens or {}
  local markers = config.root_markers
  if type(markers) ~= 'table' then
    local folder = ((config.settings or {}).rulelens or {}).rulesFolder
    if type(folder) ~= 'string' or vim.trim(folder) == '' then
      folder = '.ai/rules'
    end
    markers = { (folder:gsub('^%./', ''):gsub('/+$', '')), '.git' }
  end
  local path = vim.api.nvim_buf_get_name(bufnr)
  if path == '' then
    return
  end
  for _, marker in ipairs(markers) do
    local found = vim.fs.find(marker, { upward = true, path = vim.fs.dirname(path) })[1]
    if found then
      return on_dir(found:sub(1, #found - #marker - 1))
    end
  end
end

---@type vim.lsp.Config
return {
  cmd = { 'rulelens', 'serve' },
  root_dir = root_dir,
  -- Rules live in a project: start no server for files outside every project.
  workspace_required = true,
  -- The `rulelens` section: severity, hover, codeLens, prompt, rulesFolder (:help rulelens-settings).
  settings = { rulelens = {} },
  commands = {
    -- The "Record a project rule for …" code action: prompt for the title and note, then
    -- let the server record. Without the plugin's Lua module the server gets the command as
    -- it is and places an entry skeleton in the rule file instead.
    ['rulelens.recordRule'] = function(command, ctx)
      local ok, rulelens = pcall(require, 'rulelens')
      if ok then
        return rulelens.record_command(command, ctx)
      end
      local client = vim.lsp.get_client_by_id(ctx.client_id)
      if client then
        client:request('workspace/executeCommand',
          { command = command.command, arguments = command.arguments }, nil, ctx.bufnr)
      end
    end,
  },
}
