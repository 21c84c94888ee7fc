"""Forms (WTForms with Flask-WTF's CSRF protection) shared by the web views."""

from __future__ import annotations

import re
import zoneinfo
from datetime import UTC, datetime
from pathlib import PurePath

from babel.lists import format_list
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from pydantic import TypeAdapter
from pydantic import ValidationError as SchemaError
from wtforms import (
    BooleanField,
    DateField,
    DateTimeLocalField,
    FieldList,
    FormField,
    HiddenField,
    IntegerField,
    PasswordField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, Regexp, ValidationError

from quiz import accounts, nicknames
from quiz.bank.schema import DIFFICULTIES, Identifier
from quiz.drafts import MAX_DRAFTS, TITLE_MAX_LENGTH
from quiz.formats import FORMATS, Format, format_for_filename, importers
from quiz.kinds import KINDS
from quiz.kinds.number import format_number, parse_number
from quiz.play import LENGTH_ALL, LENGTH_STANDARD

#: How the forms name the bank's difficulties.
DIFFICULTY_LABELS = {"easy": _l("Easy"), "medium": _l("Medium"), "hard": _l("Hard")}


def nickname_characters(form: FlaskForm, field: StringField) -> None:
    """WTForms validator: printable characters only (spaces inside are folded to one)."""
    if field.data and not nicknames.has_allowed_characters(field.data):
        raise ValidationError(nicknames.CHARACTERS_MESSAGE)


class StartAttemptForm(FlaskForm):
    length = RadioField(
        _l("Length"),
        choices=[SelectChoice(LENGTH_STANDARD, _l("Standard")), SelectChoice(LENGTH_ALL, _l("All questions"))],
        default=LENGTH_STANDARD,
        validators=[InputRequired()],
    )
    difficulty = SelectField(
        _l("Difficulty"),
        choices=[SelectChoice("", _l("Any")), *(SelectChoice(name, DIFFICULTY_LABELS[name]) for name in DIFFICULTIES)],
        default="",
        validators=[Optional()],
    )


class NicknameForm(FlaskForm):
    nickname = StringField(
        _l("Nickname"),
        filters=[nicknames.clean],
        validators=[
            Optional(),
            Length(max=nicknames.MAX_LENGTH, message=nicknames.LENGTH_MESSAGE),
            nickname_characters,
        ],
        description=_l("Shown on leaderboards, up to 20 characters. Leave it empty to stay off them."),
    )


class ConfirmForm(FlaskForm):
    """A form with nothing but its CSRF token, for buttons that change something."""


class HostSessionForm(FlaskForm):
    pacing = RadioField(
        _l("Pacing"),
        choices=[
            SelectChoice("host", _l("I pace the questions (live, projected)")),
            SelectChoice("self", _l("Students play at their own pace until a deadline")),
        ],
        default="host",
        validators=[InputRequired()],
    )
    question_count = IntegerField(
        _l("Number of questions"),
        validators=[Optional(), NumberRange(min=1, max=500, message=_l("Choose between 1 and 500 questions."))],
        description=_l("Leave empty to ask all of them."),
    )
    time_limit = IntegerField(
        _l("Seconds per question"),
        validators=[Optional(), NumberRange(min=5, max=240, message=_l("Choose between 5 and 240 seconds."))],
        description=_l("Leave empty to use each question's own limit (or the quiz's)."),
    )
    shuffle = BooleanField(_l("Shuffle the questions"))
    show_leaderboard = BooleanField(_l("Show the leaderboard between questions"), default=True)
    scoring = RadioField(
        _l("Scoring"),
        choices=[
            SelectChoice("speed", _l("Faster right answers earn more (up to 1000 points, plus streaks)")),
            SelectChoice("plain", _l("One point per right answer")),
        ],
        default="speed",
        validators=[InputRequired()],
    )
    deadline = DateTimeLocalField(_l("Deadline (self-paced only)"), format="%Y-%m-%dT%H:%M", validators=[Optional()])
    time_zone = SelectField(
        _l("Time zone of the deadline"), choices=[SelectChoice(zone, zone) for zone in sorted(zoneinfo.available_timezones())],
    )

    def validate_deadline(self, field: DateTimeLocalField) -> None:
        if self.pacing.data == "self" and field.data is None:
            raise ValidationError(_("A self-paced session needs a deadline."))

    @property
    def deadline_utc(self) -> datetime | None:
        """The deadline as stored: naive UTC, from the wall-clock time in the chosen zone."""
        if self.deadline.data is None:
            return None
        local = self.deadline.data.replace(tzinfo=zoneinfo.ZoneInfo(self.time_zone.data))
        return local.astimezone(UTC).replace(tzinfo=None)


class JoinForm(FlaskForm):
    code = StringField(
        _l("Session code"),
        filters=[lambda value: "".join((value or "").split())],
        validators=[
            InputRequired(message=_l("Enter the 6-digit code on the screen.")),
            Regexp(r"^\d{6}$", message=_l("The code has 6 digits.")),
        ],
    )
    nickname = StringField(
        _l("Nickname"),
        filters=[nicknames.clean],
        validators=[
            DataRequired(message=_l("Choose a nickname.")),
            Length(max=nicknames.MAX_LENGTH, message=nicknames.LENGTH_MESSAGE),
            nickname_characters,
        ],
    )


class HostActionForm(FlaskForm):
    action = StringField(validators=[InputRequired()])


class LoginForm(FlaskForm):
    username = StringField(
        _l("Username"),
        validators=[
            InputRequired(message=_l("Enter your username.")),
            Length(
                max=accounts.USERNAME_MAX_LENGTH,
                message=_l("A username has at most %(max)s characters.", max=accounts.USERNAME_MAX_LENGTH),
            ),
        ],
    )
    password = PasswordField(
        _l("Password"),
        validators=[
            InputRequired(message=_l("Enter your password.")),
            Length(
                max=accounts.PASSWORD_MAX_LENGTH,
                message=_l("A password has at most %(max)s characters.", max=accounts.PASSWORD_MAX_LENGTH),
            ),
        ],
    )


class StatisticsFilterForm(FlaskForm):
    """Which plays the statistics count. A GET form: it changes nothing, so it needs no CSRF token."""

    class Meta:
        csrf = False

    plays = SelectField(_l("Plays"), default="all", validate_choice=True)
    started_from = DateField(_l("Started on or after"), validators=[Optional()])
    started_until = DateField(_l("Started on or before"), validators=[Optional()])

    def validate_started_until(self, field: DateField) -> None:
        if field.data and self.started_from.data and field.data < self.started_from.data:
            raise ValidationError(_("The end date comes before the start date."))


# Admin: the question bank -------------------------------------------------------------------


class BankUploadForm(FlaskForm):
    """A bank to preview: an uploaded YAML file, or YAML pasted into the page."""

    file = FileField(_l("A bank file (YAML)"))
    text = TextAreaField(_l("Or paste the bank"), render_kw={"rows": 12, "spellcheck": "false"})

    def validate_text(self, field: TextAreaField) -> None:
        if not self.file.data and not (field.data or "").strip():
            raise ValidationError(_("Choose a file or paste a bank."))


class BankApplyForm(FlaskForm):
    """The previewed bank, carried back in the page, and the digest of the bank it was compared with."""

    bank = HiddenField(validators=[InputRequired()])
    digest = HiddenField(validators=[InputRequired()])
    file_name = HiddenField(validators=[InputRequired()])


class QuestionFilterForm(FlaskForm):
    """Which questions the admin list shows. A GET form: it changes nothing, so it needs no CSRF token."""

    class Meta:
        csrf = False

    quiz = SelectField(_l("Quiz"), default="")
    tag = SelectField(_l("Tag"), default="")
    difficulty = SelectField(
        _l("Difficulty"), default="",
        choices=[SelectChoice("", _l("Any")), *(SelectChoice(name, DIFFICULTY_LABELS[name]) for name in DIFFICULTIES)],
    )
    retired = SelectField(
        _l("Status"), default="no",
        choices=[SelectChoice("no", _l("In play")), SelectChoice("yes", _l("Retired")), SelectChoice("all", _l("All"))],
    )


#: Choice inputs on the question form: the most a question may have.
QUESTION_FORM_CHOICES = 6
#: The kinds this form edits; questions of other kinds are edited in the bank file.
FORM_KINDS = ("single", "multi", "true_false", "number", "text")
_TAG_SEPARATORS = re.compile(r"[\s,]+")


class QuestionForm(FlaskForm):
    """One question of the bank, turned into a bank entry (:meth:`entry`) so that it is checked
    exactly as the YAML file is; the checker's messages come back onto the fields (:meth:`show_errors`)."""

    slug = StringField(
        _l("Id"), filters=[lambda value: (value or "").strip()],
        description=_l("Lowercase letters, digits, - _ and . (for example streaming-service). It never changes once saved."),
    )
    quiz = SelectField(_l("Quiz"))
    kind = SelectField(_l("Kind"), choices=[SelectChoice(name, KINDS[name].label) for name in FORM_KINDS], default="single")
    difficulty = SelectField(
        _l("Difficulty"), choices=[SelectChoice(name, DIFFICULTY_LABELS[name]) for name in DIFFICULTIES], default="medium",
    )
    prompt = TextAreaField(_l("Question"), render_kw={"rows": 3})
    choices = FieldList(StringField(_l("Choice")), min_entries=QUESTION_FORM_CHOICES, max_entries=QUESTION_FORM_CHOICES)
    correct = SelectMultipleField(
        _l("Correct choices"), choices=[str(number) for number in range(1, QUESTION_FORM_CHOICES + 1)], validate_choice=False
    )
    answer_is_true = RadioField(
        _l("The statement is"), choices=[SelectChoice("true", _l("True")), SelectChoice("false", _l("False"))],
        validate_choice=False,
    )
    number_answer = StringField(_l("Answer"), render_kw={"inputmode": "decimal"})
    tolerance = StringField(
        _l("Tolerance"), render_kw={"inputmode": "decimal"},
        description=_l("Optional: how far from the answer a typed number is still right."),
    )
    unit = StringField(_l("Unit"), description=_l("Optional: shown beside the answer box, for example km."))
    accept = TextAreaField(
        _l("Accepted answers"), render_kw={"rows": 3},
        description=_l("One per line, the first shown as the answer. Case, accents and punctuation do not count."),
    )
    fuzzy = BooleanField(_l("Forgive one wrong, missing or extra letter in an answer of six letters or more"))
    explanation = TextAreaField(
        _l("Explanation"), render_kw={"rows": 4}, description=_l("In your own words: why this is the answer."),
    )
    source = TextAreaField(
        _l("Source quotes"), render_kw={"rows": 4},
        description=_l("One quote per line, copied word for word from the quiz's article."),
    )
    tags = StringField(_l("Tags"), description=_l("Optional, separated by commas or spaces."))
    time_limit = IntegerField(
        _l("Seconds to answer"), validators=[Optional()], description=_l("Optional: leave empty to use the quiz's limit."),
    )
    group = StringField(
        _l("Group"), filters=[lambda value: (value or "").strip()],
        description=_l("Optional: questions of one group tell each other's answers, and are never asked together."),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        #: Errors about the choices as a whole (how many there are), shown above them.
        self.choice_errors: list[str] = []

    @property
    def fixed_choices(self) -> bool:
        return self.kind.data == "true_false"

    @property
    def typed_number(self) -> bool:
        return self.kind.data == "number"

    @property
    def typed_text(self) -> bool:
        return self.kind.data == "text"

    @property
    def accepted(self) -> list[str]:
        return [line.strip() for line in (self.accept.data or "").splitlines() if line.strip()]

    def validate_correct(self, field: SelectMultipleField) -> None:
        if self.fixed_choices or self.typed_number or self.typed_text:
            return
        picked = [int(value) for value in field.data or [] if value.isdigit() and 1 <= int(value) <= QUESTION_FORM_CHOICES]
        if not picked:
            raise ValidationError(_("Mark the correct choice."))
        empty = [number for number in picked if not (self.choices.data[number - 1] or "").strip()]
        if empty:
            raise ValidationError(_("Choice %(number)s is marked correct but has no text.", number=empty[0]))

    def validate_answer_is_true(self, field: RadioField) -> None:
        if self.fixed_choices and field.data not in ("true", "false"):
            raise ValidationError(_("Choose true or false."))

    def validate_number_answer(self, field: StringField) -> None:
        if self.typed_number and _typed_number(field.data) is None:
            raise ValidationError(_("Give the answer as a number, such as 1994 or 2.5."))

    def validate_accept(self, field: TextAreaField) -> None:
        if self.typed_text and not self.accepted:
            raise ValidationError(_("Give at least one accepted answer."))

    def validate_tolerance(self, field: StringField) -> None:
        if not self.typed_number or not (field.data or "").strip():
            return
        tolerance = _typed_number(field.data)
        if tolerance is None or tolerance < 0:
            raise ValidationError(_("Give the tolerance as a number of 0 or more, or leave it empty."))

    def entry(self) -> tuple[dict[str, object], list[int]]:
        """The bank entry the form describes, and the form's number of each of its choices
        (empty inputs are left out, so entry choice 2 may be the form's choice 3)."""
        entry: dict[str, object] = {
            "id": self.slug.data, "quiz": self.quiz.data, "kind": self.kind.data,
            "difficulty": self.difficulty.data, "prompt": self.prompt.data or "",
        }
        numbers: list[int] = []
        if self.fixed_choices:
            entry["correct"] = self.answer_is_true.data == "true"
        elif self.typed_number:
            entry["answer"] = _typed_number(self.number_answer.data)
            if (tolerance := _typed_number(self.tolerance.data)) is not None:
                entry["tolerance"] = tolerance
            if (self.unit.data or "").strip():
                entry["unit"] = self.unit.data.strip()
        elif self.typed_text:
            entry["accept"] = self.accepted
            if self.fuzzy.data:
                entry["fuzzy"] = True
        else:
            filled = [(number, text.strip()) for number, text in enumerate(self.choices.data, 1) if (text or "").strip()]
            numbers = [number for number, _text in filled]
            picked = set(self.correct.data or [])
            correct = [text for number, text in filled if str(number) in picked]
            if filled:
                entry["choices"] = [text for _number, text in filled]
            entry["correct"] = correct[0] if len(correct) == 1 and not KINDS[self.kind.data].multiple else correct
        entry["explanation"] = self.explanation.data or ""
        entry["source"] = [line.strip() for line in (self.source.data or "").splitlines() if line.strip()]
        tags = [tag for tag in _TAG_SEPARATORS.split(self.tags.data or "") if tag]
        if tags:
            entry["tags"] = tags
        if self.time_limit.data is not None:
            entry["time_limit"] = self.time_limit.data
        if self.group.data:
            entry["group"] = self.group.data
        return entry, numbers

    @staticmethod
    def data_from_entry(entry: dict[str, object]) -> dict[str, object]:
        """Form data showing a bank entry (as :func:`quiz.bank.exporter.revision_entry` gives it)."""
        choices = list(entry.get("choices") or [])  # type: ignore[call-overload]
        correct = entry.get("correct")
        correct_texts = correct if isinstance(correct, list) else [correct]
        return {
            "slug": entry.get("id"), "quiz": entry.get("quiz"), "kind": entry.get("kind"),
            "difficulty": entry.get("difficulty"), "prompt": entry.get("prompt"),
            "choices": choices + [""] * (QUESTION_FORM_CHOICES - len(choices)),
            "correct": [str(number) for number, text in enumerate(choices, 1) if text in correct_texts],
            "answer_is_true": ("true" if correct else "false") if isinstance(correct, bool) else None,
            "number_answer": _written_number(entry.get("answer")),
            "tolerance": _written_number(entry.get("tolerance")),
            "unit": entry.get("unit"),
            "accept": "\n".join(entry.get("accept") or []),  # type: ignore[arg-type]
            "fuzzy": bool(entry.get("fuzzy")),
            "explanation": entry.get("explanation"),
            "source": "\n".join(entry.get("source") or []),  # type: ignore[arg-type]
            "tags": ", ".join(entry.get("tags") or []),  # type: ignore[arg-type]
            "time_limit": entry.get("time_limit"),
            "group": entry.get("group"),
        }

    def show_errors(self, errors: list[tuple[tuple[str | int, ...], str]], numbers: list[int]) -> None:
        """Put the checker's errors for the entry on the fields they concern; ``numbers`` is
        what :meth:`entry` returned beside the entry."""
        fields = {
            "id": self.slug, "quiz": self.quiz, "kind": self.kind, "difficulty": self.difficulty,
            "prompt": self.prompt, "explanation": self.explanation, "source": self.source,
            "tags": self.tags, "time_limit": self.time_limit, "group": self.group,
            "correct": self.answer_is_true if self.fixed_choices else self.correct,
            "answer": self.number_answer, "tolerance": self.tolerance, "unit": self.unit,
            "accept": self.accept, "fuzzy": self.fuzzy,
        }
        for loc, message in errors:
            message = message[0].upper() + message[1:]
            name = loc[0] if loc else None
            index = loc[1] if len(loc) > 1 and isinstance(loc[1], int) else None
            if name == "choices" and index is not None and index < len(numbers):
                target = self.choices.entries[numbers[index] - 1]
            elif name == "choices":
                self.choice_errors.append(message)
                continue
            elif name in fields:
                target = fields[name]
                if index is not None:
                    message = (
                        _("Quote %(number)s: %(message)s", number=index + 1, message=message) if name == "source"
                        else _("Tag %(number)s: %(message)s", number=index + 1, message=message)
                    )
            else:
                self.form_errors.append(message)
                continue
            target.errors = [*target.errors, message]


def _typed_number(text: str | None) -> int | float | None:
    """A number typed into the form as players type theirs ("1,200", "2.5", "3,5"), whole
    numbers as integers so that the bank file writes 1200, not 1200.0; None when it is none."""
    value = parse_number(text or "")
    if value is None:
        return None
    return int(value) if value.is_integer() and abs(value) < 1e15 else value


def _written_number(value: object) -> str | None:
    return format_number(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


# Admin: questions from other tools, and drafted from an article ------------------------------


_IDENTIFIER = TypeAdapter(Identifier)


def bank_id(form: FlaskForm, field: StringField) -> None:
    """WTForms validator: empty, or an id the bank accepts."""
    if field.data:
        try:
            _IDENTIFIER.validate_python(field.data)
        except SchemaError:
            raise ValidationError(
                _("Use lowercase letters, digits, - _ and . (at most 64), starting and ending with a letter or digit.")
            ) from None


def _stripped(value: str | None) -> str:
    return (value or "").strip()


def _unix_newlines(value: str | None) -> str | None:
    # Browsers send every line break of a field as CRLF; the article is stored with LF.
    return value.replace("\r\n", "\n").replace("\r", "\n") if value is not None else None


class QuestionFileForm(FlaskForm):
    """Another quiz tool's question file, to add its questions to a quiz."""

    file = FileField(_l("A question file"))
    format = SelectField(
        _l("Format"), default="",
        choices=[
            SelectChoice("", _l("As the file name's extension says")),
            *(SelectChoice(entry.name, f"{entry.label} ({', '.join(entry.extensions)})") for entry in importers()),
        ],
    )
    quiz = SelectField(_l("Add the questions to the quiz"))
    strict = BooleanField(_l("Refuse the whole file if any of its questions must be left out"))

    def validate_file(self, field: FileField) -> None:
        if not field.data:
            raise ValidationError(_("Choose a file."))

    def validate_format(self, field: SelectField) -> None:
        if field.data or not self.file.data:
            return
        name = self.file.data.filename or ""
        guessed = format_for_filename(name)
        if guessed is None:
            suffix = PurePath(name).suffix.lower()
            candidates = [entry.label for entry in importers() if suffix and suffix in entry.extensions]
            if len(candidates) > 1:
                raise ValidationError(_(
                    "A %(suffix)s file may be %(formats)s: choose which, and the file again.",
                    suffix=suffix, formats=format_list(candidates, style="or", locale=get_locale()),
                ))
            raise ValidationError(_("The file name does not say which format it is: choose the format, and the file again."))
        if guessed.read is None:
            if guessed is FORMATS["yaml"]:
                raise ValidationError(
                    _("%(format)s files cannot be read here: use Import a bank for a bank file.", format=guessed.label)
                )
            raise ValidationError(_("%(format)s files cannot be read here.", format=guessed.label))

    @property
    def chosen_format(self) -> Format:
        """The format to read the file with; only once the form is valid."""
        chosen = FORMATS[self.format.data] if self.format.data else format_for_filename(self.file.data.filename or "")
        assert chosen is not None and chosen.read is not None  # as validate_format made sure
        return chosen


class ArticleForm(FlaskForm):
    """An article to draft questions from, uploaded or pasted, and what to call the new quiz."""

    file = FileField(_l("An article file (plain text or Markdown)"))
    text = TextAreaField(_l("Or paste the article"), render_kw={"rows": 12})
    title = StringField(
        _l("Title"), filters=[_stripped],
        validators=[Length(max=TITLE_MAX_LENGTH, message=_l("A title has at most %(max)s characters.", max=TITLE_MAX_LENGTH))],
        description=_l(
            "Of the article and the new quiz. Leave it empty to use the article's first line, when it reads like a title."
        ),
    )
    article_id = StringField(
        _l("Article id"), filters=[_stripped], validators=[bank_id],
        description=_l("Lowercase letters, digits, - _ and . Leave it empty to make one from the title."),
    )
    quiz_id = StringField(
        _l("Quiz id"), filters=[_stripped], validators=[bank_id],
        description=_l("Leave it empty to make one from the title."),
    )
    names = BooleanField(_l("Ask for people, places and titles too, for the player to type"), default=True)

    def validate_text(self, field: TextAreaField) -> None:
        if not self.file.data and not (field.data or "").strip():
            raise ValidationError(_("Choose a file or paste an article."))


class DraftQuestionForm(QuestionForm):
    """One drafted question on the review page: the question form, and whether to keep it."""

    class Meta:
        # Part of :class:`DraftReviewForm`, whose token covers the whole page.
        csrf = False

    include = BooleanField(_l("Include this question"), default=True)
    #: The quiz is the new one, the same for every question: the review form says which.
    quiz = HiddenField()

    @property
    def marked(self) -> bool:
        """Whether any error is shown on the question, :meth:`show_errors`' included (a field
        list's ``errors`` keeps what validation found and misses those put on its entries later)."""
        return bool(self.errors or self.choice_errors or any(choice.errors for choice in self.choices))


class _PickedQuestions(FieldList):
    """The drafted questions; only those the admin kept are checked: a dropped one may be as
    broken as it likes."""

    def validate(self, form, extra_validators=()) -> bool:
        self.errors = [entry.errors if entry.form.include.data and not entry.validate(form) else [] for entry in self.entries]
        if not any(self.errors):
            self.errors = []
        return not self.errors


class DraftReviewForm(FlaskForm):
    """The drafts of an article, each to keep or drop and edit; the article and the new ids ride
    along in hidden fields, as they were when the drafts were made."""

    title = HiddenField(validators=[InputRequired(), Length(max=TITLE_MAX_LENGTH)])
    quiz_title = HiddenField(validators=[InputRequired(), Length(max=TITLE_MAX_LENGTH)])
    article_id = HiddenField(validators=[InputRequired(), bank_id])
    quiz_id = HiddenField(validators=[InputRequired(), bank_id])
    text = HiddenField(filters=[_unix_newlines], validators=[InputRequired()])
    questions = _PickedQuestions(FormField(DraftQuestionForm), max_entries=MAX_DRAFTS)

    @property
    def carried_intact(self) -> bool:
        """Whether the token and the hidden fields came back valid (the page was not forged or cut)."""
        return not any(field.errors for field in (self.title, self.quiz_title, self.article_id, self.quiz_id, self.text)) and (
            "csrf_token" not in self.errors
        )

    @property
    def has_errors(self) -> bool:
        """Whether anything is marked, including what the bank checks put on the questions after validation."""
        return bool(self.errors) or any(question.marked for question in self.picked)

    @property
    def picked(self) -> list[DraftQuestionForm]:
        return [entry.form for entry in self.questions if entry.form.include.data]

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        if not self.picked:
            self.form_errors.append(_("Pick at least one question: tick Include on the ones to keep."))
            return False
        return valid
