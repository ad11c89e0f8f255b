"""swords-lexsub's own plumbing, below every package of the toolkit: the `swords` command (cli.py), its options and
plugin points (arguments.py, plugins.py), the user-facing error (errors.py), text shown on a terminal (terminal.py),
files written atomically (files.py), secrets kept out of what is shown (credentials.py), bounded reading of a
server's answer (bounded_body.py), and the release's Hugging Face Hub repositories (hub/)."""

# The release's version, in one place: setup.cfg reads it, and the Hub repositories pin it.
__version__ = "0.1.0"
