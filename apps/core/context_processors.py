from django.conf import settings


def site(request):
    return {
        "site_name": settings.SAGASMITH_SITE_NAME,
        "registration_mode": settings.SAGASMITH_REGISTRATION_MODE,
    }
