"""Simulation: many games between strategies, and what they add up to."""
