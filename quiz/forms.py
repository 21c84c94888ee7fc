"""Forms (WTForms with Flask-WTF's CSRF protection) shared by the web views."""

from __future__ import annotations

import unicodedata

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DateTimeLocalField,
    IntegerField,
    PasswordField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, Regexp, ValidationError

from quiz import accounts
from quiz.play import LENGTH_ALL, LENGTH_STANDARD

NICKNAME_MAX_LENGTH = 20
#: Unicode categories a nickname may use: letters, marks, numbers, punctuation, symbols.
#: Controls, format characters (such as right-to-left overrides) and line breaks are refused;
#: markup characters are allowed and always escaped on output.
_NICKNAME_CATEGORIES = frozenset("LMNPS")


def nickname_characters(form: FlaskForm, field: StringField) -> None:
    """WTForms validator: printable characters only (spaces inside are folded to one)."""
    if field.data and not all(ch == " " or unicodedata.category(ch)[0] in _NICKNAME_CATEGORIES for ch in field.data):
        raise ValidationError("Use letters, digits, punctuation and spaces only.")


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
        validators=[
            Optional(),
            Length(max=NICKNAME_MAX_LENGTH, message="Use at most 20 characters."),
            nickname_characters,
        ],
        description="Shown on leaderboards, up to 20 characters. Leave it empty to stay off them.",
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
    def picked_values(self) -> list[str]:
        """The numbers submitted, as text, to re-check them when the form comes back."""
        data = self.choice.data  # type: ignore[attr-defined]
        return [str(value) for value in (data if isinstance(data, list) else [data]) if value]

    @property
    def picked(self) -> list[int]:
        data = self.choice.data  # type: ignore[attr-defined]
        return [int(value) for value in (data if isinstance(data, list) else [data])]


class ConfirmForm(FlaskForm):
    """A form with nothing but its CSRF token, for buttons that change something."""


class HostSessionForm(FlaskForm):
    pacing = RadioField(
        "Pacing",
        choices=[
            SelectChoice("host", "I pace the questions (live, projected)"),
            SelectChoice("self", "Students play at their own pace until a deadline"),
        ],
        default="host",
        validators=[InputRequired()],
    )
    question_count = IntegerField(
        "Number of questions",
        validators=[Optional(), NumberRange(min=1, max=500, message="Choose between 1 and 500 questions.")],
        description="Leave empty to ask all of them.",
    )
    time_limit = IntegerField(
        "Seconds per question",
        validators=[Optional(), NumberRange(min=5, max=240, message="Choose between 5 and 240 seconds.")],
        description="Leave empty to use each question's own limit (or the quiz's).",
    )
    shuffle = BooleanField("Shuffle the questions")
    show_leaderboard = BooleanField("Show the leaderboard between questions", default=True)
    scoring = RadioField(
        "Scoring",
        choices=[
            SelectChoice("speed", "Faster right answers earn more (up to 1000 points, plus streaks)"),
            SelectChoice("plain", "One point per right answer"),
        ],
        default="speed",
        validators=[InputRequired()],
    )
    deadline = DateTimeLocalField(
        "Deadline (self-paced only, UTC)", format="%Y-%m-%dT%H:%M", validators=[Optional()]
    )

    def validate_deadline(self, field: DateTimeLocalField) -> None:
        if self.pacing.data == "self" and field.data is None:
            raise ValidationError("A self-paced session needs a deadline.")


class JoinForm(FlaskForm):
    code = StringField(
        "Session code",
        filters=[lambda value: "".join((value or "").split())],
        validators=[InputRequired(message="Enter the 6-digit code on the screen."), Regexp(r"^\d{6}$", message="The code has 6 digits.")],
    )
    nickname = StringField(
        "Nickname",
        filters=[clean_nickname],
        validators=[
            DataRequired(message="Choose a nickname."),
            Length(max=NICKNAME_MAX_LENGTH, message="Use at most 20 characters."),
            nickname_characters,
        ],
    )


class HostActionForm(FlaskForm):
    action = StringField(validators=[InputRequired()])


class LoginForm(FlaskForm):
    username = StringField(
        "Username",
        validators=[
            InputRequired(message="Enter your username."),
            Length(
                max=accounts.USERNAME_MAX_LENGTH,
                message=f"A username has at most {accounts.USERNAME_MAX_LENGTH} characters.",
            ),
        ],
    )
    password = PasswordField(
        "Password",
        validators=[
            InputRequired(message="Enter your password."),
            Length(
                max=accounts.PASSWORD_MAX_LENGTH,
                message=f"A password has at most {accounts.PASSWORD_MAX_LENGTH} characters.",
            ),
        ],
    )
