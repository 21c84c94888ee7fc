"""statistics: right answers per attempt, counted answers, leaderboard index in ranking order

Revision ID: 0003
Revises: 0002
"""
from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('attempt', schema=None) as batch_op:
        batch_op.add_column(sa.Column('correct_count', sa.Integer(), nullable=False, server_default='0'))
    op.execute(
        "UPDATE attempt SET correct_count = "
        "(SELECT COUNT(*) FROM answer WHERE answer.attempt_id = attempt.id AND answer.is_correct)"
    )
    with op.batch_alter_table('answer', schema=None) as batch_op:
        batch_op.add_column(sa.Column('attempt_correct_count', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('attempt_question_count', sa.Integer(), nullable=True))
    op.execute(
        "UPDATE answer SET "
        "attempt_correct_count = (SELECT correct_count FROM attempt WHERE attempt.id = answer.attempt_id), "
        "attempt_question_count = (SELECT question_count FROM attempt WHERE attempt.id = answer.attempt_id) "
        "WHERE attempt_id IN (SELECT id FROM attempt WHERE finished_at IS NOT NULL AND retry_of_id IS NULL)"
    )
    counted = sa.text('attempt_question_count IS NOT NULL')
    op.create_index(
        'ix_answer_statistics', 'answer',
        ['revision_id', 'selected_mask', 'is_correct', 'attempt_correct_count', 'attempt_question_count', 'elapsed_ms'],
        unique=False, sqlite_where=counted, postgresql_where=counted,
    )
    op.create_index(
        'ix_answer_time', 'answer', ['revision_id', 'elapsed_ms'],
        unique=False, sqlite_where=counted, postgresql_where=counted,
    )
    op.drop_index('ix_best_score_ranking', table_name='best_score')
    op.create_index(
        'ix_best_score_ranking', 'best_score',
        ['quiz_id', sa.text('score DESC'), 'duration_ms', 'finished_at'], unique=False,
    )


def downgrade():
    op.drop_index('ix_best_score_ranking', table_name='best_score')
    op.create_index(
        'ix_best_score_ranking', 'best_score', ['quiz_id', 'score', 'duration_ms', 'finished_at'], unique=False
    )
    op.drop_index('ix_answer_time', table_name='answer')
    op.drop_index('ix_answer_statistics', table_name='answer')
    with op.batch_alter_table('answer', schema=None) as batch_op:
        batch_op.drop_column('attempt_question_count')
        batch_op.drop_column('attempt_correct_count')
    with op.batch_alter_table('attempt', schema=None) as batch_op:
        batch_op.drop_column('correct_count')
