-- none-ls (https://github.com/nvimtools/none-ls.nvim): its golangci_lint
-- diagnostics source, pointed at the golangci-lint binary that contains the
-- locklint linters. none-ls runs the binary from the directory holding
-- go.mod and picks golangci-lint v2 arguments from its `version` output.
local null_ls = require("null-ls")

null_ls.setup({
  sources = {
    null_ls.builtins.diagnostics.golangci_lint.with({
      command = vim.fn.getcwd() .. "/bin/golangci-lint-locklint",
    }),
  },
})
