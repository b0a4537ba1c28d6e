# English dates and times as the room's timeline writes them in the browser ("Dec 7, 2026,
# 5:26 AM UTC"), so every page reads the same; Django's English says "Dec. 7, 2026, 5:26 a.m." and
# its short forms "12/07/2026", which reads as July 12 in much of the world. The short forms
# are the long ones: one style throughout. Formats not named here, input formats included,
# stay Django's. Syntax: https://docs.djangoproject.com/en/5.2/ref/templates/builtins/#date
DATE_FORMAT = "M j, Y"
# A moment names its zone ("5:26 AM UTC"): the admin's pages and forms write these formats
# themselves, where a reader could not tell the server's zone from their own.
TIME_FORMAT = "g:i A T"
DATETIME_FORMAT = "M j, Y, g:i A T"
SHORT_DATE_FORMAT = DATE_FORMAT
SHORT_DATETIME_FORMAT = DATETIME_FORMAT
