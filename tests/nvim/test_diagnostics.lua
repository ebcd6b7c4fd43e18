-- Headless Neovim with the oomlint plugin: diagnostics from the real server
-- arrive in vim.diagnostic.get, and follow an edit of the buffer.
local function codes(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    -- 0.7 keeps the LSP code in user_data; later versions in `code`
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    table.insert(out, tostring(code))
  end
  table.sort(out)
  return table.concat(out, " ")
end

local ok, err = pcall(function()
  require("oomlint").setup({ cmd = { os.getenv("OOMLINT_BIN"), "server" } })
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("OOM_NVIM_FILE")))
  vim.bo.filetype = "python" -- started with -u NONE: no filetype detection
  local bufnr = vim.api.nvim_get_current_buf()
  assert(vim.wait(30000, function()
    return codes(bufnr):find("OOM101") ~= nil
  end, 50), "no diagnostics arrived: " .. codes(bufnr))
  local first = codes(bufnr)
  assert(first:find("OOM602") and first:find("OOM501"), "unexpected diagnostics: " .. first)
  io.stdout:write("diagnostics: " .. first .. "\n")
  -- fix the accumulation in the buffer: OOM101 goes away (incremental sync)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  for i, line in ipairs(lines) do
    if line:find("total += loss", 1, true) then
      vim.api.nvim_buf_set_text(bufnr, i - 1, #line, i - 1, #line, { ".item()" })
    end
  end
  assert(vim.wait(30000, function()
    return codes(bufnr):find("OOM101") == nil
  end, 50), "OOM101 still reported after the edit: " .. codes(bufnr))
  io.stdout:write("after the edit: " .. codes(bufnr) .. "\n")
end)
if not ok then
  io.stderr:write("FAIL: " .. tostring(err) .. "\n")
  vim.cmd("cquit 1")
end
io.stdout:write("PASS: the plugin's diagnostics arrived in vim.diagnostic.get\n")
vim.cmd("qall!")
