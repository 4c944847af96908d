"""Tricolore for agent builders: the flat action codec (:mod:`tricolore.interop.codec`), the
observation encoding (:mod:`tricolore.interop.observation`), PettingZoo environments
(:mod:`tricolore.interop.pettingzoo`) and Gymnasium environments (:mod:`tricolore.interop.gymnasium`),
which share their rewards, caches and guard against stalls (:mod:`tricolore.interop.episode`).

The environments need the ``rl`` extra (``pip install 'tricolore[rl]'``). When Gymnasium is
installed, importing this package registers the ids ``tricolore/Culottes-v0``,
``tricolore/Trials-v0``, ``tricolore/LetThemEatCake-v0``, ``tricolore/Revolution-v0`` and
``tricolore/BreadAndCircuses-v0``, so ``gymnasium.make("tricolore/Culottes-v0")`` works after
``import tricolore.interop``.
"""

from importlib.util import find_spec

RL_EXTRA = "install the rl extra: pip install 'tricolore[rl]'"
"""What to do when an environment's library is missing."""

if find_spec("gymnasium") is not None:
    from tricolore.interop.gymnasium import register

    register()
