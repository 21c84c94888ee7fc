"""The question bank: YAML files of articles, quizzes and sourced questions."""

from quiz.bank.errors import BankError, BankInvalid
from quiz.bank.loader import Bank, load_bank, parse_bank

__all__ = ["Bank", "BankError", "BankInvalid", "load_bank", "parse_bank"]
