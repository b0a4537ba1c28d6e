import functools

from django.contrib import admin
from django.db import models
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from .models import AuditEvent
from .moments import moment_html

# Choice labels are lowercase to read mid-sentence ("30 credits (staff grant)"); the admin's
# columns and filters start them with a capital, as the product's pages do.


def capitalised_choices_filter(field_name: str) -> type[admin.SimpleListFilter]:
    """A list filter offering a field's choices with a capital ("Staff grant")."""

    class CapitalisedChoicesFilter(admin.SimpleListFilter):
        parameter_name = field_name

        def __init__(self, request, params, model, model_admin):
            field = model._meta.get_field(field_name)
            self.title = field.verbose_name
            self.field_choices = field.choices
            super().__init__(request, params, model, model_admin)

        def lookups(self, request, model_admin):
            return [(value, capfirst(label)) for value, label in self.field_choices]

        def queryset(self, request, queryset):
            if self.value() is None:
                return queryset
            return queryset.filter(**{field_name: self.value()})

    return CapitalisedChoicesFilter


def capitalised_choice_column(model, field_name: str, name: str):
    """A list column naming a row's choice with a capital, sorted by it; `name` is the
    attribute it is assigned to on the ModelAdmin."""

    @admin.display(description=model._meta.get_field(field_name).verbose_name, ordering=field_name)
    def column(self, obj):
        return capfirst(getattr(obj, f"get_{field_name}_display")())

    column.__name__ = name
    return column


def moment_in_a_column(at):
    """A moment as every page writes it, with its zone ("Mar 4, 2099, 3:30 PM UTC"), in the
    page's zone as the admin's own columns are (None without one). A narrow column breaks it
    between the date and the time, not inside either."""
    if at is None:
        return None
    at = timezone.localtime(at)
    return format_html('<time datetime="{}">{}</time>', at.isoformat(), moment_html(at))


# One column per field, not one per call: the admin finds a column among the sortable ones (and
# the links) by identity, and asks for the list display again to make that list.
@functools.cache
def moment_column(model, field_name: str):
    """A list column writing a datetime field as moment_in_a_column does, headed and sorted as
    the field's own; named as the field, so its cells and heading keep their classes."""

    @admin.display(description=model._meta.get_field(field_name).verbose_name, ordering=field_name)
    def column(obj):
        return moment_in_a_column(getattr(obj, field_name))

    column.__name__ = field_name
    return column


class MomentColumnsMixin:
    """A list's datetime fields written as moment_in_a_column does: the admin writes such a
    field itself as one run of words ("Dec 7, 2026, 5:26 AM UTC"), which a narrow column breaks
    anywhere, and offers no hook for how; list_display may hold callables, so the field's name
    gives way to a column of its own."""

    def get_list_display(self, request):
        moments = {
            field.name
            for field in self.model._meta.get_fields()
            if isinstance(field, models.DateTimeField)
        }
        return [
            moment_column(self.model, name) if isinstance(name, str) and name in moments else name
            for name in super().get_list_display(request)
        ]


def id_in_a_column(value):
    """A row's id cut to eight characters in a list, whole in its title (and on the row's own
    page): full UUIDs push a list past a laptop's width and wrap to four lines on a phone."""
    text = str(value)
    if len(text) <= 8:
        return text
    return format_html('<span title="{}">{}</span>', text, text[:8])


@admin.register(AuditEvent)
class AuditEventAdmin(MomentColumnsMixin, admin.ModelAdmin):
    """Read-only: the audit log is append-only, even for superusers."""

    list_display = ("created_at", "action", "actor", "subject", "request_id_column")
    list_filter = ("action", "subject_type")
    search_fields = ("action", "subject_id", "request_id", "actor__email")
    readonly_fields = [f.name for f in AuditEvent._meta.fields]
    date_hierarchy = "created_at"

    @admin.display(description=_("subject"), ordering="subject_type")
    def subject(self, obj):
        if not obj.subject_id:
            return obj.subject_type or None
        return format_html("{} {}", obj.subject_type, id_in_a_column(obj.subject_id))

    @admin.display(description=_("request id"), ordering="request_id")
    def request_id_column(self, obj):
        return id_in_a_column(obj.request_id) if obj.request_id else None

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class AuditedAdminMixin:
    """Staff changes made in admin also land in the audit log."""

    def _audit(self, request, obj, action, details=None):
        from .services import audit_record

        audit_record(
            actor=request.user,
            action=f"admin.{action}",
            subject_type=obj._meta.label_lower,
            subject_id=str(obj.pk),
            details=details or {},
        )

    def log_addition(self, request, obj, message):
        self._audit(request, obj, "added")
        return super().log_addition(request, obj, message)

    def log_change(self, request, obj, message):
        self._audit(request, obj, "changed", {"change": message})
        return super().log_change(request, obj, message)

    def log_deletions(self, request, queryset):
        for obj in queryset:
            self._audit(request, obj, "deleted", {"repr": str(obj)[:200]})
        return super().log_deletions(request, queryset)
