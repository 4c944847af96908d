"""Each table keeps a secret from which its bots draw their randomness.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.bot_secret``; tables made before it get one when the server resumes them."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("bot_secret", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop ``tables.bot_secret``."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("bot_secret")
