# English dates and times as the room's timeline writes them in the browser ("Dec 7, 2026,
# 5:26 AM"), so every page reads the same; Django's English says "Dec. 7, 2026, 5:26 a.m." and
# its short forms "12/07/2026", which reads as July 12 in much of the world. The short forms
# are the long ones: one style throughout. Formats not named here, input formats included,
# stay Django's. Syntax: https://docs.djangoproject.com/en/5.2/ref/templates/builtins/#date
DATE_FORMAT = "M j, Y"
TIME_FORMAT = "g:i A"
DATETIME_FORMAT = "M j, Y, g:i A"
SHORT_DATE_FORMAT = DATE_FORMAT
SHORT_DATETIME_FORMAT = DATETIME_FORMAT
