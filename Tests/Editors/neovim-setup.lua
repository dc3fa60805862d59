-- Driven by test_neovim.py: Debian's Neovim, headless, with the setup docs/EDITING.md gives
-- (SETUP, its Lua block with `digno` the binary under test), opens three content files as an
-- editor's user does, then saves a fix in one buffer that another buffer's diagnostic named.
-- Each step's outcome is written to RESULT as one JSON object a line.
local root, result_path = os.getenv("WORKSPACE"), os.getenv("RESULT")
local out = io.open(result_path, "w")
local function report(step, value)
  out:write(vim.fn.json_encode({ step = step, value = value }) .. "\n")
  out:flush()
end

local ok, failure = pcall(function()
  vim.cmd("filetype on")
  dofile(os.getenv("SETUP"))
  vim.cmd("cd " .. root)
  local buffers = {}
  for _, path in ipairs({ "content/recipes/cappuccino.xml", "content/recipes/cafe-latte.xml", "content/products/espresso.xml" }) do
    vim.cmd("edit " .. root .. "/" .. path)
    buffers[path] = vim.api.nvim_get_current_buf()
  end
  local recipe, product = buffers["content/recipes/cappuccino.xml"], buffers["content/products/espresso.xml"]
  vim.wait(30000, function()
    local clients = vim.lsp.get_active_clients()
    return #clients == 1 and clients[1].initialized
  end, 50)
  local clients = vim.lsp.get_active_clients()
  local attached = 0
  for _, buffer in pairs(buffers) do
    if vim.lsp.buf_is_attached(buffer, clients[1].id) then attached = attached + 1 end
  end
  report("servers", #clients)
  report("attached", attached)
  report("omnifunc", vim.bo[recipe].omnifunc)
  local keys = {}
  for _, map in ipairs(vim.api.nvim_buf_get_keymap(recipe, "n")) do keys[#keys + 1] = map.lhs end
  table.sort(keys)
  report("keys", keys)

  -- The recipe names a product that does not exist yet (typed, not saved): its diagnostic comes.
  for index, line in ipairs(vim.api.nvim_buf_get_lines(recipe, 0, -1, false)) do
    if line:find('product="espresso"', 1, true) then
      vim.api.nvim_buf_set_lines(recipe, index - 1, index, false, { (line:gsub('product="espresso"', 'product="espresso-tumma"')) })
      break
    end
  end
  vim.wait(30000, function() return #vim.diagnostic.get(recipe) > 0 end, 50)
  local diagnostics = vim.diagnostic.get(recipe)
  report("named", diagnostics[1] and diagnostics[1].message or vim.NIL)

  -- In another buffer, the product's file takes that id and is saved under that name: the
  -- recipe's diagnostic goes, from the one server that has both.
  vim.api.nvim_set_current_buf(product)
  for index, line in ipairs(vim.api.nvim_buf_get_lines(product, 0, -1, false)) do
    if line:find('id="espresso"', 1, true) then
      vim.api.nvim_buf_set_lines(product, index - 1, index, false, { (line:gsub('id="espresso"', 'id="espresso-tumma"')) })
      break
    end
  end
  vim.cmd("silent write " .. root .. "/content/products/espresso-tumma.xml")
  vim.cmd("silent! bwipeout! " .. product)
  vim.cmd("edit " .. root .. "/content/products/espresso-tumma.xml")
  vim.wait(30000, function() return #vim.diagnostic.get(recipe) == 0 end, 50)
  local left = {}
  for _, diagnostic in ipairs(vim.diagnostic.get(recipe)) do left[#left + 1] = diagnostic.message end
  report("after save", left)
end)
if not ok then report("error", tostring(failure)) end
out:close()
vim.cmd(ok and "qall!" or "cquit 1")
