"""Tricolore for agent builders: the flat action codec shared by every RL adapter
(:mod:`tricolore.interop.codec`)."""
