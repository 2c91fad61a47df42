-- nvim-lint (https://github.com/mfussenegger/nvim-lint): run the
-- golangci-lint binary that contains the locklint linters on save.
-- nvim-lint's golangcilint linter supplies the golangci-lint v2 arguments;
-- only the command changes. nvim-lint asks `golangci-lint version` to pick
-- those arguments, so the custom binary should also be on PATH under the
-- name golangci-lint (see docs/integrations.md).
local lint = require("lint")

lint.linters.golangcilint.cmd = vim.fn.getcwd() .. "/bin/golangci-lint-locklint"
lint.linters_by_ft = vim.tbl_extend("force", lint.linters_by_ft or {}, {
  go = { "golangcilint" },
})

vim.api.nvim_create_autocmd({ "BufWritePost", "BufReadPost" }, {
  pattern = "*.go",
  callback = function()
    lint.try_lint()
  end,
})
