-- Starting the server, five ways: `vim.lsp.enable` on 0.11+, nvim-lspconfig's legacy
-- `lspconfig.configs` where an older nvim-lspconfig works, else `vim.lsp.start` (0.8-0.10)
-- or `vim.lsp.start_client` (0.7), each attached to every file buffer of a project.

local rulelens = require('rulelens')

local M = {}

local options = rulelens.options

local function settings_section()
  local section = vim.deepcopy(options.settings or {})
  if section.prompt == nil then
    section.prompt = true -- this plugin prompts for the title and note
  end
  return section
end

--- The markers in effect: the user's `root_markers`, else the rules folder, then `.git`.
function M.markers()
  return options.root_markers or rulelens.markers_for(options.settings)
end

-- No `commands` key here: `setup()` puts the handler in `vim.lsp.commands`, which every
-- start path (and nvim-lspconfig of any version) leaves alone.
local function client_config(root)
  local section = settings_section()
  return {
    name = rulelens.name,
    cmd = options.cmd,
    root_dir = root,
    settings = { rulelens = section },
    init_options = { rulelens = section },
    on_attach = options.on_attach,
    capabilities = options.capabilities,
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
  local root = rulelens.find_root(vim.api.nvim_buf_get_name(bufnr), M.markers())
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
  if not real_file(bufnr) or vim.bo[bufnr].filetype ~= ''
      or not vim.lsp.is_enabled(rulelens.name) then
    return
  end
  local config = vim.deepcopy(vim.lsp.config[rulelens.name])
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

--- nvim-lspconfig's `lspconfig.configs`, when it loads on this Neovim (v1.4.0 needs 0.9 and
--- v2 needs 0.10: on 0.7 neither does, and the plugin starts the server itself).
local function lspconfig_configs()
  local ok, configs = pcall(require, 'lspconfig.configs')
  if ok and pcall(require, 'lspconfig') then
    return configs
  end
  return nil
end

local function start_lspconfig(configs)
  if not configs[rulelens.name] then
    configs[rulelens.name] = {
      default_config = {
        cmd = options.cmd,
        -- no filetypes: lspconfig then attaches on every BufReadPost, empty filetypes too.
        -- The markers in order of preference (util.root_pattern takes the nearest of any).
        root_dir = function(fname)
          return rulelens.find_root(fname, M.markers())
        end,
        settings = { rulelens = {} },
      },
      docs = { description = 'rulelens: the project rules (.ai/rules) your AI agent sees.' },
    }
  end
  local config = client_config(nil)
  config.name, config.root_dir = nil, nil
  require('lspconfig')[rulelens.name].setup(config)
end

local function start_enable()
  local config = client_config(nil)
  config.name = nil
  -- A function, not `root_markers`: vim.fs.root cannot take a marker with a slash.
  config.root_dir = function(bufnr, on_dir)
    local root = rulelens.find_root(vim.api.nvim_buf_get_name(bufnr), M.markers())
    if root then
      on_dir(root)
    end
  end
  config.workspace_required = true
  vim.lsp.config(rulelens.name, config)
  vim.lsp.enable(rulelens.name)
  if options.empty_filetype then
    each_buffer_and_later(start_empty_filetype)
  end
end

--- Start the server as `opts.start` says; returns the way taken.
function M.start(opts)
  options = opts
  local how = opts.start
  if how == 'auto' then
    if vim.lsp.config and vim.lsp.enable then
      how = 'enable'
    elseif opts.lspconfig and lspconfig_configs() then
      how = 'lspconfig'
    else
      how = vim.lsp.start and 'start' or 'start_client'
    end
  end
  if how == 'enable' then
    start_enable()
  elseif how == 'lspconfig' then
    local configs = lspconfig_configs()
    if not configs then
      error('rulelens: start = "lspconfig" but nvim-lspconfig is not installed or does not'
        .. ' load on this Neovim')
    end
    start_lspconfig(configs)
  elseif how == 'start' or how == 'start_client' then
    use_start_client = how == 'start_client' or not vim.lsp.start
    each_buffer_and_later(start_legacy)
  else
    error('rulelens: start must be auto, enable, lspconfig, start or start_client: '
      .. tostring(how))
  end
  return how
end

return M
