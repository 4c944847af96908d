"""Measuring the engine's speed beside a bare-Python floor and OpenSpiel's games (``tricolore bench``)."""
