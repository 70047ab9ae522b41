# brave-game-wrong.awk: a wrong solution to HDU 1846 (Brave Game, Bash), as submitted: it
# reads the judge's input (C, then C lines "n m") and says "second" when m divides n, where
# the rule is n mod (m + 1). grundy draws tests from HDU 1846's whole input family and shrinks
# the first failing one:
#
#   grundy check --input-format hdu-1846 --program 'awk -f examples/check/brave-game-wrong.awk'
NR > 1 { print ($1 % $2 ? "first" : "second") }
