"""A table's turn clock and its running deadlines, its creator's token, and each seat's browser.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.clock_seconds``, ``tables.deadlines``, ``tables.creator_hash`` and
    ``seat_tokens.device_hash``; older tables have no clock and no creator token."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("clock_seconds", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("deadlines", sa.JSON, nullable=True))
        batch.add_column(sa.Column("creator_hash", sa.String(64), nullable=True))
    with op.batch_alter_table("seat_tokens") as batch:
        batch.add_column(sa.Column("device_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("seat_tokens") as batch:
        batch.drop_column("device_hash")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("creator_hash")
        batch.drop_column("deadlines")
        batch.drop_column("clock_seconds")
