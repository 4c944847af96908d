"""The terms a private chat message proposes (a trade, a counter-offer), kept with its text; and
whether anyone in the lobby may take a table's open seats; and each live table's latest snapshot.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``chat.terms`` and ``tables.open_to_all``; older messages propose nothing and older
    tables are joined by invitation only."""
    with op.batch_alter_table("chat") as batch:
        batch.add_column(sa.Column("terms", sa.JSON, nullable=True))
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("open_to_all", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "snapshots",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("actions", sa.Integer, nullable=False),
        sa.Column("digest", sa.String(32), nullable=False),
        sa.Column("code", sa.String(64), nullable=False),
        sa.Column("state", sa.LargeBinary, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("snapshots")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("open_to_all")
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("terms")
