"""Forms (WTForms with Flask-WTF's CSRF protection) shared by the web views."""

from __future__ import annotations

import re
import unicodedata

from flask_wtf import FlaskForm
from wtforms import RadioField, SelectField, SelectMultipleField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, Optional, ValidationError

from quiz.play import LENGTH_ALL, LENGTH_STANDARD

NICKNAME_MAX_LENGTH = 20
# Letters and digits of any script, spaces and a few joiners; no symbols, markup or controls.
_NICKNAME = re.compile(r"^[^\W_](?:[\w .'\-]*[^\W_])?$")


def clean_nickname(value: str | None) -> str | None:
    """NFC-normalised with runs of spaces folded; empty means no nickname."""
    if value is None:
        return None
    value = " ".join(unicodedata.normalize("NFC", value).split())
    return value or None


class StartAttemptForm(FlaskForm):
    length = RadioField(
        "Length",
        choices=[SelectChoice(LENGTH_STANDARD, "Standard"), SelectChoice(LENGTH_ALL, "All questions")],
        default=LENGTH_STANDARD,
        validators=[InputRequired()],
    )
    difficulty = SelectField(
        "Difficulty",
        choices=[
            SelectChoice("", "Any"), SelectChoice("easy", "Easy"),
            SelectChoice("medium", "Medium"), SelectChoice("hard", "Hard"),
        ],
        default="",
        validators=[Optional()],
    )


class NicknameForm(FlaskForm):
    nickname = StringField(
        "Nickname",
        filters=[clean_nickname],
        validators=[Optional(), Length(max=NICKNAME_MAX_LENGTH, message="Use at most 20 characters.")],
        description="Shown on leaderboards. Up to 20 letters, digits, spaces, - . ' or _. Leave empty to stay off them.",
    )

    def validate_nickname(self, field: StringField) -> None:
        if field.data and not _NICKNAME.match(field.data):
            raise ValidationError(
                "Use letters, digits and spaces, with - . ' or _ between them."
            )


class AnswerForm(FlaskForm):
    """One question's choices, named by their number on screen. Built per question."""

    @classmethod
    def for_choices(cls, count: int, multiple: bool, **kwargs) -> AnswerForm:
        choices = [str(number) for number in range(1, count + 1)]
        message = "Choose at least one answer." if multiple else "Choose an answer."
        field_class = SelectMultipleField if multiple else RadioField
        form_class = type(
            "BoundAnswerForm",
            (cls,),
            {"choice": field_class("Answer", choices=choices, validators=[InputRequired(message=message)])},
        )
        return form_class(**kwargs)

    @property
    def picked(self) -> list[int]:
        data = self.choice.data  # type: ignore[attr-defined]
        return [int(value) for value in (data if isinstance(data, list) else [data])]


class ConfirmForm(FlaskForm):
    """A form with nothing but its CSRF token, for buttons that change something."""
