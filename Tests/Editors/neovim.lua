-- Driven by test_neovim.py: Debian's Neovim, headless, with its built-in LSP client and no
-- configuration but this, starts `digno lsp` as docs/EDITING.md says, then does what an
-- editor's user does. Each step's outcome is written to RESULT as one JSON object a line;
-- the Python test judges them.
local digno, root, result_path = os.getenv("DIGNO"), os.getenv("WORKSPACE"), os.getenv("RESULT")
local out = io.open(result_path, "w")
local function report(step, value)
  out:write(vim.fn.json_encode({ step = step, value = value }) .. "\n")
  out:flush()
end
local function finish(status)
  out:close()
  vim.cmd((status == 0) and "qall!" or "cquit " .. status)
end

local ok, failure = pcall(function()
  vim.cmd("edit " .. root .. "/content/recipes/cappuccino.xml")
  local recipe = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({ name = "digno", cmd = { digno, "lsp" }, root_dir = root })
  vim.lsp.buf_attach_client(recipe, client_id)
  report("started", vim.wait(30000, function()
    local client = vim.lsp.get_client_by_id(client_id)
    return client ~= nil and client.initialized
  end, 50))

  -- A mistake typed, not saved: its diagnostic comes.
  local line_number
  for index, line in ipairs(vim.api.nvim_buf_get_lines(recipe, 0, -1, false)) do
    if line:find('product="espresso"', 1, true) then
      line_number = index - 1
      local typo = line:gsub('product="espresso"', 'product="espreso"')
      vim.api.nvim_buf_set_lines(recipe, line_number, line_number + 1, false, { typo })
      break
    end
  end
  vim.wait(30000, function() return #vim.diagnostic.get(recipe) > 0 end, 50)
  local diagnostics = vim.diagnostic.get(recipe)
  report("diagnostic", diagnostics[1] and { line = diagnostics[1].lnum, message = diagnostics[1].message } or vim.NIL)

  -- Undone: the diagnostic goes.
  vim.cmd("silent! undo")
  vim.wait(30000, function() return #vim.diagnostic.get(recipe) == 0 end, 50)
  report("cleared", #vim.diagnostic.get(recipe))

  -- Go to definition from the reference.
  local line = vim.api.nvim_buf_get_lines(recipe, line_number, line_number + 1, false)[1]
  local column = line:find('espresso"', 1, true)
  vim.api.nvim_win_set_cursor(0, { line_number + 1, column })
  local responses = vim.lsp.buf_request_sync(recipe, "textDocument/definition", vim.lsp.util.make_position_params(), 30000)
  local location = responses and responses[client_id] and responses[client_id].result and responses[client_id].result[1]
  if location then vim.lsp.util.jump_to_location(location, "utf-16") end
  report("definition", vim.api.nvim_buf_get_name(0))

  -- Rename the product's id from its own file; the edit applied and every buffer saved.
  local product = vim.api.nvim_get_current_buf()
  vim.fn.bufload(product)
  vim.lsp.buf_attach_client(product, client_id)
  local root_line = vim.api.nvim_buf_get_lines(product, 1, 2, false)[1] or ""
  local id_column = root_line:find('espresso"', 1, true)
  if not id_column then error("no id on the product's second line: " .. root_line) end
  vim.api.nvim_win_set_cursor(0, { 2, id_column })
  local params = vim.lsp.util.make_position_params()
  params.newName = "espresso-tumma"
  local renamed = vim.lsp.buf_request_sync(product, "textDocument/rename", params, 30000)
  local edit = renamed and renamed[client_id] and renamed[client_id].result
  if edit then vim.lsp.util.apply_workspace_edit(edit, "utf-16") end
  vim.cmd("silent! wall")
  report("renamed", vim.fn.filereadable(root .. "/content/products/espresso-tumma.xml") == 1
    and vim.fn.filereadable(root .. "/content/products/espresso.xml") == 0)
end)
if not ok then report("error", tostring(failure)) end
finish(ok and 0 or 1)
