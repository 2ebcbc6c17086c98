"""Who is signed in and where things are kept: the token, organisation check, settings, paths, the
single instance, the start-up check, session ids."""
