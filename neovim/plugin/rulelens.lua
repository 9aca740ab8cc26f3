-- :RulelensRecord, :RulelensRules and :RulelensVerify for everyone who has this folder on the runtimepath,
-- also when the server is started with only `vim.lsp.enable('rulelens')`. The face module
-- is small; the modules that do the work load when a command runs.

if vim.g.loaded_rulelens or vim.fn.has('nvim-0.7') == 0 then
  return
end
vim.g.loaded_rulelens = 1

require('rulelens').user_commands()
