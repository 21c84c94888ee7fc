"""Declaring API operations once: the URL rule, the checks and parsing every view needs, and
the OpenAPI 3.1 document, all from the same declaration.

A view is declared with :meth:`Api.operation`: its method and path (OpenAPI syntax), who may
call it, the pydantic models of its query, body and response, and the errors it can answer
with. The decorator registers the Flask rule, and wraps the view so that it receives the
authenticated player or account and the validated query and body, returns a pydantic model,
and commits once. The document at ``/api/v1/openapi.json`` is built from the same
declarations, with pydantic's JSON Schemas as its components, so the two cannot drift apart.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pydantic_core
from flask import Blueprint, Response, jsonify, request
from flask_babel import force_locale
from pydantic import BaseModel, ValidationError
from pydantic.json_schema import models_json_schema

from quiz.bank.schema import Identifier
from quiz.extensions import db
from quiz.web.api import auth
from quiz.web.api.errors import CODES, WWW_AUTHENTICATE, ApiError
from quiz.web.api.schemas import Error

#: Security scheme names, as the document calls them.
PLAYER = "playerToken"
ACCOUNT = "apiToken"

#: Ids stored in INTEGER columns; a larger number in a URL is a 404, never a database error.
MAX_ID = 2**31 - 1


@dataclass(frozen=True)
class PathParameter:
    description: str
    schema: dict[str, Any]
    #: The Flask converter; string parameters are also checked against the schema's pattern,
    #: so that nothing outside it (a NUL byte, say) ever reaches a query.
    converter: str = "string"

    @property
    def pattern(self) -> re.Pattern | None:
        return re.compile(self.schema["pattern"]) if "pattern" in self.schema else None


def _identifier_pattern() -> str:
    return next(item.pattern for item in Identifier.__metadata__ if getattr(item, "pattern", None))


def _id(description: str) -> PathParameter:
    return PathParameter(description, {"type": "integer", "minimum": 1, "maximum": MAX_ID}, f"int(min=1, max={MAX_ID})")


PATH_PARAMETERS: dict[str, PathParameter] = {
    "quiz_id": PathParameter("The quiz's id, as in the bank file.", {"type": "string", "pattern": _identifier_pattern()}),
    "attempt_id": PathParameter(
        "The attempt's id, as returned when it started.", {"type": "string", "pattern": r"^[A-Za-z0-9_-]{1,64}$"}
    ),
    "position": _id("The question's place in the attempt, from 1."),
    "session_id": _id("The classroom session's id."),
    "revision_id": _id("The question revision's id, as the statistics give it."),
}

#: Descriptions of the errors every operation of a kind can answer with.
_STANDARD_ERRORS = {
    400: "The request is malformed: a body that is not valid JSON, or a NUL character in the URL.",
    401: "No token, or not a valid one, in the Authorization header.",
    403: "The token's account may not use this endpoint.",
    404: "Nothing has this id, or it is not yours.",
    405: "The endpoint does not accept this method.",
    409: "The request conflicts with the current state.",
    413: "The body is larger than the server accepts.",
    415: "The body is not application/json.",
    422: "The query or body does not match its schema: see `details`.",
    429: "Too many requests; wait and try again.",
}


@dataclass(frozen=True)
class FileResponse:
    """A response that is a downloadable file in one of several media types."""

    description: str
    media_types: tuple[str, ...]


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    name: str
    summary: str
    description: str
    tag: str
    security: str | None
    roles: tuple[str, ...]
    body: type[BaseModel] | None
    body_required: bool
    query: type[BaseModel] | None
    response: type[BaseModel] | FileResponse
    status: int
    #: Status -> description, beyond those the declaration implies.
    errors: dict[int, str]
    #: Other success statuses the view may choose, with their descriptions.
    other_statuses: dict[int, str]

    @property
    def path_parameters(self) -> list[str]:
        return re.findall(r"\{(\w+)\}", self.path)

    def error_statuses(self) -> dict[int, str]:
        # Any request may be malformed (see quiz.web.security, which refuses NUL characters).
        implied: list[int] = [400]
        if self.security:
            implied.append(401)
        if self.roles:
            implied.append(403)
        if self.path_parameters:
            implied.append(404)
        if self.body:
            implied += [413, 415, 422]
        if self.query:
            implied.append(422)
        statuses = {status: _STANDARD_ERRORS[status] for status in implied}
        statuses.update(self.errors)
        return dict(sorted(statuses.items()))


@dataclass
class Api:
    """The operations of one API version, on one blueprint."""

    blueprint: Blueprint
    title: str
    version: str
    description: str
    tags: list[dict[str, str]]
    operations: list[Operation] = field(default_factory=list)
    _document: dict[str, Any] | None = None

    def operation(
        self,
        method: str,
        path: str,
        *,
        summary: str,
        tag: str,
        response: type[BaseModel] | FileResponse,
        status: int = 200,
        security: str | None = None,
        roles: tuple[str, ...] = (),
        body: type[BaseModel] | None = None,
        body_required: bool = True,
        query: type[BaseModel] | None = None,
        errors: dict[int, str] | None = None,
        other_statuses: dict[int, str] | None = None,
        limits: tuple[Callable, ...] = (),
    ) -> Callable:
        """Declare the decorated view as an operation; see the module's docstring.

        The view gets the path parameters, ``player`` (``security=PLAYER``) or ``token``
        (``security=ACCOUNT``, an :class:`~quiz.models.ApiToken` whose user has one of
        ``roles``, any role when empty), ``query`` and ``body``. It returns the response
        model, or ``(model, status)`` for one of ``other_statuses``, or a Flask response for
        a file, and raises :class:`~quiz.web.api.errors.ApiError` to refuse. ``limits`` are
        Flask-Limiter decorators; they apply before anything else, so their key functions
        must identify the caller themselves.
        """

        def decorator(view: Callable) -> Callable:
            docstring = inspect.cleandoc(view.__doc__ or "")
            limited = {429: _STANDARD_ERRORS[429]} if limits else {}
            operation = Operation(
                method=method, path=path, name=view.__name__, summary=summary, description=docstring, tag=tag,
                security=security, roles=roles, body=body, body_required=body_required, query=query,
                response=response, status=status, errors={**limited, **(errors or {})},
                other_statuses=other_statuses or {},
            )
            unknown = set(operation.path_parameters) - set(PATH_PARAMETERS)
            if unknown:
                raise ValueError(f"{path}: undeclared path parameters {sorted(unknown)}")

            @functools.wraps(view)
            def endpoint(**path_values: Any) -> Response:
                return self._call(operation, view, path_values)

            # Limits wrap the registered function itself, so that Flask-Limiter finds them
            # under the endpoint's name and checks them once.
            for limit in limits:
                endpoint = limit(endpoint)
            self.blueprint.add_url_rule(_flask_rule(path), view.__name__, endpoint, methods=[method])
            self.operations.append(operation)
            self._document = None
            return view

        return decorator

    def _call(self, operation: Operation, view: Callable, path_values: dict[str, Any]) -> Response:
        # The API speaks English whatever the caller's Accept-Language: the messages the domain
        # builds for the pages (refusals, review reasons, notes) come out as the API documents them.
        with force_locale("en"):
            return self._respond(operation, view, path_values)

    def _respond(self, operation: Operation, view: Callable, path_values: dict[str, Any]) -> Response:
        # Who is asking comes first: a caller without a valid token learns nothing, not even
        # whether an id exists.
        kwargs = dict(path_values)
        if operation.security == PLAYER:
            kwargs["player"] = auth.authenticated_player()
        elif operation.security == ACCOUNT:
            kwargs["token"] = auth.authenticated_token(operation.roles)
        for name, value in path_values.items():
            pattern = PATH_PARAMETERS[name].pattern
            if pattern is not None and not pattern.fullmatch(value):
                raise ApiError(404, CODES[404], _STANDARD_ERRORS[404])
        if operation.query is not None:
            kwargs["query"] = _parse_query(operation.query)
        if operation.body is not None:
            kwargs["body"] = _parse_body(operation.body, operation.body_required)
        result = view(**kwargs)
        # One transaction per request: the view and the domain only flushed. An ApiError
        # skips this, and the session is rolled back when the request ends.
        db.session.commit()
        if isinstance(result, Response):
            return result
        status = operation.status
        if isinstance(result, tuple):
            result, status = result
        response = jsonify(result.model_dump(mode="json"))
        response.status_code = status
        # Answers, scores and tokens are personal: no cache may keep them.
        response.headers["Cache-Control"] = "no-store"
        return response

    # The OpenAPI document -----------------------------------------------------------------------

    def document(self) -> dict[str, Any]:
        """The OpenAPI 3.1 document of every declared operation; built once, then reused."""
        if self._document is None:
            self._document = self._build_document()
        return self._document

    def _build_document(self) -> dict[str, Any]:
        models: list[tuple[type[BaseModel], str]] = [(Error, "serialization")]
        for operation in self.operations:
            if operation.body is not None:
                models.append((operation.body, "validation"))
            if isinstance(operation.response, type):
                models.append((operation.response, "serialization"))
        refs, top = models_json_schema(list(dict.fromkeys(models)), ref_template="#/components/schemas/{model}")
        error_ref = refs[(Error, "serialization")]
        paths: dict[str, dict[str, Any]] = {}
        for operation in self.operations:
            paths.setdefault(operation.path, {})[operation.method.lower()] = self._operation_object(
                operation, refs, error_ref
            )
        return {
            "openapi": "3.1.0",
            "info": {"title": self.title, "version": self.version, "description": self.description},
            "servers": [{"url": self.blueprint.url_prefix}],
            "tags": self.tags,
            "paths": paths,
            "components": {
                "schemas": top.get("$defs", {}),
                "securitySchemes": {
                    PLAYER: {
                        "type": "http",
                        "scheme": "bearer",
                        "description": "A player token from `POST /players`. It identifies one player, "
                        "who needs no account; keep it to come back to the same attempts.",
                    },
                    ACCOUNT: {
                        "type": "http",
                        "scheme": "bearer",
                        "bearerFormat": "quiz_…",
                        "description": "A teacher's or admin's API token, made with "
                        "`quiz users token create NAME --label L`. It stops working when revoked or "
                        "when its account is disabled.",
                    },
                },
            },
        }

    def _operation_object(self, operation: Operation, refs: dict, error_ref: dict) -> dict[str, Any]:
        parameters = [
            {
                "name": name,
                "in": "path",
                "required": True,
                "description": PATH_PARAMETERS[name].description,
                "schema": PATH_PARAMETERS[name].schema,
            }
            for name in operation.path_parameters
        ]
        if operation.query is not None:
            parameters += _query_parameters(operation.query)
        if isinstance(operation.response, FileResponse):
            description = operation.response.description
            # No schema: a file's bytes are not JSON, and clients save them as they come.
            content: dict[str, Any] = {media_type: {} for media_type in operation.response.media_types}
        else:
            description = _first_paragraph(operation.response.__doc__ or "") or "Success."
            content = {"application/json": {"schema": refs[(operation.response, "serialization")]}}
        responses: dict[str, Any] = {
            str(status): {"description": text, "content": content}
            for status, text in {operation.status: description, **operation.other_statuses}.items()
        }
        for status, description in operation.error_statuses().items():
            responses[str(status)] = _error_response(status, description, error_ref)
        result: dict[str, Any] = {
            "operationId": operation.name,
            "summary": operation.summary,
            "tags": [operation.tag],
            "security": [{operation.security: []}] if operation.security else [],
            "responses": responses,
        }
        if operation.description:
            result["description"] = operation.description
        if parameters:
            result["parameters"] = parameters
        if operation.body is not None:
            result["requestBody"] = {
                "required": operation.body_required,
                "content": {"application/json": {"schema": refs[(operation.body, "validation")]}},
            }
        return result


def _first_paragraph(text: str) -> str:
    return " ".join(text.strip().split("\n\n")[0].split())


def _error_response(status: int, description: str, error_ref: dict) -> dict[str, Any]:
    response: dict[str, Any] = {"description": description, "content": {"application/json": {"schema": error_ref}}}
    if status == 401:
        response["headers"] = {
            "WWW-Authenticate": {"description": f"Always `{WWW_AUTHENTICATE}`.", "schema": {"type": "string"}}
        }
    return response


def _query_parameters(model: type[BaseModel]) -> list[dict[str, Any]]:
    schema = model.model_json_schema(mode="validation")
    required = set(schema.get("required", ()))
    parameters = []
    for name, property_schema in schema["properties"].items():
        property_schema = dict(property_schema)
        description = property_schema.pop("description", None)
        property_schema.pop("title", None)
        parameter = {"name": name, "in": "query", "required": name in required, "schema": property_schema}
        if description:
            parameter["description"] = description
        parameters.append(parameter)
    return parameters


def _flask_rule(path: str) -> str:
    def replace(match: re.Match) -> str:
        name = match.group(1)
        converter = PATH_PARAMETERS[name].converter
        return f"<{name}>" if converter == "string" else f"<{converter}:{name}>"

    return re.sub(r"\{(\w+)\}", replace, path)


def _field_errors(error: ValidationError, where: str) -> list[dict[str, Any]]:
    """pydantic's errors as the error shape's ``details``: where, what, and a message; never
    the input itself, which may be large or not JSON."""
    return [
        {"loc": [where, *item["loc"]], "type": item["type"], "message": item["msg"]}
        for item in error.errors(include_url=False, include_input=False, include_context=False)
    ]


def _parse_query(model: type[BaseModel]) -> BaseModel:
    try:
        return model.model_validate(request.args.to_dict())
    except ValidationError as error:
        raise ApiError(422, "invalid_request", "The query string is not valid.", _field_errors(error, "query")) from None


def _parse_body(model: type[BaseModel], required: bool) -> BaseModel:
    raw = request.get_data(cache=True)
    if not raw.strip():
        if not required:
            return model()
        raise ApiError(
            422, "invalid_request", "This endpoint needs a JSON body.",
            [{"loc": ["body"], "type": "missing", "message": "A JSON body is required."}],
        )
    if request.mimetype != "application/json" and not request.mimetype.endswith("+json"):
        raise ApiError(415, "unsupported_media_type", "Send the body as application/json.")
    try:
        data = pydantic_core.from_json(raw, allow_inf_nan=False)
    except ValueError:
        raise ApiError(400, "invalid_json", "The body is not valid JSON.") from None
    try:
        # Strict: a number must be a number and a list a list, as the schema says.
        return model.model_validate(_integral_floats_as_integers(data), strict=True)
    except ValidationError as error:
        raise ApiError(422, "invalid_request", "The body is not valid.", _field_errors(error, "body")) from None


def _integral_floats_as_integers(data: Any) -> Any:
    """``data`` with every float that is a whole number made an int: JSON Schema counts ``1.0``
    as an integer, which pydantic's strict mode would refuse."""
    if isinstance(data, float):
        return int(data) if data.is_integer() else data
    if isinstance(data, list):
        return [_integral_floats_as_integers(item) for item in data]
    if isinstance(data, dict):
        return {key: _integral_floats_as_integers(value) for key, value in data.items()}
    return data
