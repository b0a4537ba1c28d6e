from django.contrib import admin
from django.utils.text import capfirst

from .models import AuditEvent

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


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """Read-only: the audit log is append-only, even for superusers."""

    list_display = ("created_at", "action", "actor", "subject_type", "subject_id", "request_id")
    list_filter = ("action", "subject_type")
    search_fields = ("action", "subject_id", "request_id", "actor__email")
    readonly_fields = [f.name for f in AuditEvent._meta.fields]
    date_hierarchy = "created_at"

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
