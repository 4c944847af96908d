"""The games, one package each: rules, data, view, determinize, bots and docs."""
