from django.contrib import admin

from .models import AuditEvent


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
