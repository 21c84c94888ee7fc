"""The row every change to the bank writes first, so that changes follow one another

Revision ID: 0006
Revises: 0005
"""
from alembic import op
import sqlalchemy as sa


revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade():
    bank_lock = op.create_table(
        'bank_lock',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('changes', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_bank_lock')),
    )
    op.bulk_insert(bank_lock, [{'id': 1, 'changes': 0}])


def downgrade():
    op.drop_table('bank_lock')
