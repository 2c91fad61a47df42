-- Headless Neovim (0.7 or later) as a client of `locklint lsp`, set up by
-- the recipe in docs/editors (LOCKLINT_RECIPE): open a file,
-- wait for the finding on LSP_LINE, apply its preferred code action (the
-- suggested fix), write the file, and wait until the re-analysis no longer
-- reports it. Exits 0 on success; on failure writes why to stderr and exits 1.
local recipe, file = os.getenv('LOCKLINT_RECIPE'), os.getenv('LSP_FILE')
local line, code = tonumber(os.getenv('LSP_LINE')) - 1, os.getenv('LSP_CODE')

local function fail(msg)
  io.stderr:write('nvim: ' .. msg .. '\n')
  vim.cmd('cquit 1')
end

local function finding(buf)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.lnum == line and d.code == code then
      return d
    end
  end
end

dofile(recipe)
vim.cmd('filetype on') -- the init file runs before Neovim turns it on
vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
if not vim.wait(30000, function() return next(vim.lsp.buf_get_clients(buf)) ~= nil end, 50) then
  fail('the recipe attached no client to the Go buffer')
end

if not vim.wait(300000, function() return finding(buf) ~= nil end, 50) then
  fail('no ' .. code .. ' diagnostic on line ' .. (line + 1))
end

local params = {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = { start = { line = line, character = 0 }, ['end'] = { line = line, character = 0 } },
  context = { diagnostics = {} },
}
local replies = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 30000)
local fix
for _, reply in pairs(replies or {}) do
  for _, action in ipairs(reply.result or {}) do
    if action.isPreferred and action.edit then
      fix = action
    end
  end
end
if not fix then
  fail('no fix code action on line ' .. (line + 1))
end
vim.lsp.util.apply_workspace_edit(fix.edit, 'utf-16')
vim.cmd('write')

if not vim.wait(300000, function() return finding(buf) == nil end, 50) then
  fail('the ' .. code .. ' diagnostic is still there after the fix')
end
vim.cmd('qall!')
