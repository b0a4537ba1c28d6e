"""Date and time formats by language (FORMAT_MODULE_PATH); a language without a module here
keeps Django's."""
