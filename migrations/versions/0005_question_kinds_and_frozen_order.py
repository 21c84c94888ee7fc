"""Question kinds beyond picking choices, groups of questions never asked together, and the
choice order fixed when play starts

Revision ID: 0005
Revises: 0004
"""
from alembic import op
import sqlalchemy as sa


revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('question_revision', schema=None) as batch_op:
        batch_op.add_column(sa.Column('answer_key', sa.JSON(), nullable=True))
    with op.batch_alter_table('question', schema=None) as batch_op:
        batch_op.add_column(sa.Column('group_name', sa.String(length=64), nullable=True))

    with op.batch_alter_table('answer', schema=None) as batch_op:
        batch_op.add_column(sa.Column('response', sa.Text(), nullable=True))
        batch_op.add_column(sa.Column('credit', sa.Float(), nullable=True))
    # Every answer so far picked choices, right or wrong.
    op.execute("UPDATE answer SET credit = CASE WHEN is_correct THEN 1.0 ELSE 0.0 END")

    # What attempts and sessions under way were shown: the quiz's setting as it is now, which is
    # what they showed until this migration (the order was recomputed from it on every read).
    # Added with a default rather than altered to NOT NULL afterwards: on SQLite an alteration
    # rebuilds the table, which the answers referring to it forbid.
    with op.batch_alter_table('attempt', schema=None) as batch_op:
        batch_op.add_column(sa.Column('shuffle_choices', sa.Boolean(), nullable=False, server_default='1'))
        batch_op.add_column(sa.Column('scored_count', sa.Integer(), nullable=False, server_default='0'))
    op.execute(
        "UPDATE attempt SET shuffle_choices = (SELECT quiz.shuffle_choices FROM quiz WHERE quiz.id = attempt.quiz_id),"
        " scored_count = question_count"
    )
    with op.batch_alter_table('live_session', schema=None) as batch_op:
        batch_op.add_column(sa.Column('shuffle_choices', sa.Boolean(), nullable=False, server_default='1'))
    op.execute(
        "UPDATE live_session SET shuffle_choices ="
        " (SELECT quiz.shuffle_choices FROM quiz WHERE quiz.id = live_session.quiz_id)"
    )


def downgrade():
    with op.batch_alter_table('live_session', schema=None) as batch_op:
        batch_op.drop_column('shuffle_choices')
    with op.batch_alter_table('attempt', schema=None) as batch_op:
        batch_op.drop_column('scored_count')
        batch_op.drop_column('shuffle_choices')
    with op.batch_alter_table('answer', schema=None) as batch_op:
        batch_op.drop_column('credit')
        batch_op.drop_column('response')
    with op.batch_alter_table('question', schema=None) as batch_op:
        batch_op.drop_column('group_name')
    with op.batch_alter_table('question_revision', schema=None) as batch_op:
        batch_op.drop_column('answer_key')
