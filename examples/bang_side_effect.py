"""Win rate of every side, same deals, with a user strategy in one seat vs the tuned bot there.
usage: python examples/bang_side_effect.py FILE.py:NAME ROLE PLAYERS N [SEED]"""
import sys
import numpy as np
from cardsim.sims.core.user_strategy import load_strategy
from cardsim.sims.bang.cards import ROLE_NAMES, SIDE_NAMES
from cardsim.sims.bang.strategy import UserSeat, play_user_games, builtin_games

spec, role, players, n = sys.argv[1], ROLE_NAMES.index(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
seed = int(sys.argv[5]) if len(sys.argv) > 5 else 12345
deal_seed, play_seed = (int(x) for x in np.random.default_rng(seed).integers(0, 2**63 - 1, size=2))
seat = UserSeat(load_strategy(spec), spec, role)
user = play_user_games(seat, players, "tuned", "tuned", deal_seed, play_seed, n)[0]
base = builtin_games(role, players, "tuned", "tuned", deal_seed, play_seed, n)[0]
print(f"{spec} as {sys.argv[2]}, {players} players, n={n}, others tuned")
for s, name in enumerate(SIDE_NAMES[:3]):
    u, b = (user == s).astype(float), (base == s).astype(float)
    d = u - b
    half = 1.96 * d.std(ddof=1) / np.sqrt(n)
    print(f"  {name:9s} with strategy {100*u.mean():5.1f}%  with tuned {100*b.mean():5.1f}%  "
          f"diff {100*d.mean():+5.2f} [{100*(d.mean()-half):+.2f}, {100*(d.mean()+half):+.2f}]")
