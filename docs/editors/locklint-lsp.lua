-- locklint's language server (`locklint lsp`) for Go buffers in Neovim,
-- beside gopls: diagnostics on open and save, and code actions (the
-- analyzers' fixes, and suppression with //locklint:ignore) through
-- vim.lsp.buf.code_action(). Neovim 0.8 or later uses vim.lsp.start; 0.7
-- falls back to vim.lsp.start_client. Put this file in your configuration
-- (for example ~/.config/nvim/plugin/locklint-lsp.lua) with locklint on
-- PATH; internal/lsp's Neovim test loads it as it is.
local settings = {
  -- analyzers = { lockvalue = false },
  -- settings = { lockfence = { someflag = 'value' } },
}

local clients = {} -- Neovim 0.7: one client per module root

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'go',
  callback = function(args)
    local buf = args.buf
    local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ':p:h')
    local gomod = vim.fn.findfile('go.mod', dir .. ';')
    local root = gomod ~= '' and vim.fn.fnamemodify(gomod, ':p:h') or dir
    local config = {
      name = 'locklint',
      cmd = { 'locklint', 'lsp' },
      root_dir = root,
      init_options = { locklint = settings },
    }
    if vim.lsp.start then
      vim.lsp.start(config, { bufnr = buf })
      return
    end
    local id = clients[root]
    if not id or not vim.lsp.get_client_by_id(id) then
      id = vim.lsp.start_client(config)
      clients[root] = id
    end
    if id then
      vim.lsp.buf_attach_client(buf, id)
    end
  end,
})
