"""A quiz's language

Revision ID: 0007
Revises: 0006
"""
from alembic import op
import sqlalchemy as sa


revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('quiz', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=35), server_default='en', nullable=False))


def downgrade():
    with op.batch_alter_table('quiz', schema=None) as batch_op:
        batch_op.drop_column('language')
