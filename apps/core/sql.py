"""SQL the ORM cannot write in one statement, built from model metadata (tables, columns and
each field's own database preparation), so it follows the models."""

from __future__ import annotations

from typing import Any

from django.db import connection


def values_sql(model, rows: list, names: tuple[str, ...]) -> tuple[str, list[Any]]:
    """`VALUES (...), (...)` for model instances, with each field's own database preparation
    (auto_now fields are set on the instances, as a save would)."""
    fields = [model._meta.get_field(name) for name in names]
    params: list[Any] = []
    for row in rows:
        for f in fields:
            params.append(f.get_db_prep_save(f.pre_save(row, add=True), connection))
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    return "VALUES " + ", ".join([one] * len(rows)), params


def insert_sql(model, rows: list, names: tuple[str, ...] | None = None) -> tuple[str, list[Any]]:
    """`INSERT INTO <table> (<columns>) VALUES ...` for instances; `names` defaults to every
    concrete field but an auto-incremented primary key."""
    if names is None:
        names = tuple(
            f.name
            for f in model._meta.concrete_fields
            if not (f.primary_key and getattr(f, "db_returning", False))
        )
    qn = connection.ops.quote_name
    columns = ", ".join(qn(model._meta.get_field(n).column) for n in names)
    values, params = values_sql(model, rows, names)
    return f"INSERT INTO {qn(model._meta.db_table)} ({columns}) {values}", params  # noqa: S608


def insert_select_sql(
    model, row, source: str, exprs: dict[str, str] | None = None
) -> tuple[str, list[Any]]:
    """`INSERT INTO <table> (<columns>) SELECT ... FROM <source>` for one instance (every
    concrete field but an auto-incremented key): a row per row of `source` (a CTE of the same
    statement), none when it has none. Each value is a parameter, with the field's own database
    preparation, except for fields named in `exprs`: an SQL expression over `source`, whose
    `%s`, if it has one, takes the field's value."""
    exprs = exprs or {}
    qn = connection.ops.quote_name
    fields = [
        f
        for f in model._meta.concrete_fields
        if not (f.primary_key and getattr(f, "db_returning", False))
    ]
    selected, params = [], []
    for f in fields:
        expr = exprs.get(f.name, "%s")
        if "%s" in expr:
            params.append(f.get_db_prep_save(f.pre_save(row, add=True), connection))
        selected.append(expr)
    columns = ", ".join(qn(f.column) for f in fields)
    return (
        f"INSERT INTO {qn(model._meta.db_table)} ({columns}) "  # noqa: S608
        f"SELECT {', '.join(selected)} FROM {source}",
        params,
    )


def db_value(model, field_name: str, value) -> Any:
    """A lookup value as `model.field_name` stores it on this backend (SQLite: UUIDs as hex)."""
    field = model._meta.pk if field_name == "pk" else model._meta.get_field(field_name)
    return field.get_db_prep_value(value, connection)


def mark_saved(*rows) -> None:
    """Instances written by hand-built SQL become what a save() would leave: stored rows."""
    for row in rows:
        row._state.adding, row._state.db = False, connection.alias


def model_from_row(model, values) -> Any:
    """An instance from raw column values in `concrete_fields` order, converted as the ORM
    converts a fetched row (for a hand-built statement that reads several models at once)."""
    fields = model._meta.concrete_fields
    converted = []
    for field, value in zip(fields, values, strict=True):
        col = field.get_col(model._meta.db_table)
        for converter in connection.ops.get_db_converters(col) + col.get_db_converters(connection):
            value = converter(value, col, connection)
        converted.append(value)
    return model.from_db(connection.alias, [f.attname for f in fields], converted)
