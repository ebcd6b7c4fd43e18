-- oomlint for Neovim: starts `oomlint server` (LSP on stdio) for Python
-- buffers, with vim.lsp.start where it exists (0.8+), else start_client (0.7).
local M = {}

local defaults = {
  cmd = { "oomlint", "server" },
  filetypes = { "python" },
  -- the nearest folder holding one of these is the workspace root
  root_markers = { "pyproject.toml", "oomlint.toml", ".oomlint.toml", ".git" },
  -- what the server reads: select, ignore, extendSelect, rulesDir
  settings = {},
  on_attach = nil,
  capabilities = nil,
}

local config = vim.deepcopy(defaults)
-- Neovim 0.7 has no vim.lsp.start to reuse a client: one client per root
local clients = {}

local function find_root(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local dir = name ~= "" and vim.fn.fnamemodify(name, ":p:h") or vim.loop.cwd()
  -- vim.fs.find arrived in 0.8: walk up by hand
  local current = dir
  while true do
    for _, marker in ipairs(config.root_markers) do
      if vim.loop.fs_stat(current .. "/" .. marker) then
        return current
      end
    end
    local parent = vim.fn.fnamemodify(current, ":h")
    if parent == current then
      return dir
    end
    current = parent
  end
end

local function client_config(root)
  return {
    name = "oomlint",
    cmd = config.cmd,
    root_dir = root,
    init_options = config.settings,
    settings = { oomlint = config.settings },
    capabilities = config.capabilities or vim.lsp.protocol.make_client_capabilities(),
    on_attach = config.on_attach,
  }
end

local function attach(bufnr)
  if vim.bo[bufnr].buftype ~= "" then
    return
  end
  local root = find_root(bufnr)
  if vim.lsp.start then
    vim.lsp.start(client_config(root), { bufnr = bufnr })
    return
  end
  local id = clients[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    id = vim.lsp.start_client(client_config(root))
    clients[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

--- Start oomlint for the buffers of OPTS.filetypes (default: python).
--- OPTS: cmd, filetypes, root_markers, settings, on_attach, capabilities.
function M.setup(opts)
  config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  if vim.fn.executable(config.cmd[1]) ~= 1 then
    vim.notify("oomlint: `" .. config.cmd[1] .. "` is not an executable; set cmd in setup{}", vim.log.levels.WARN)
    return
  end
  local group = vim.api.nvim_create_augroup("oomlint", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = config.filetypes,
    callback = function(args)
      attach(args.buf)
    end,
  })
  -- buffers opened before setup{}
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(config.filetypes, vim.bo[bufnr].filetype) then
      attach(bufnr)
    end
  end
end

return M
