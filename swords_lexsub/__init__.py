"""swords-lexsub's own plumbing, below every package of the toolkit: the `swords` command, its options and plugin
points, errors, terminal text, atomic files, credentials, bounded HTTP, and the release's Hub repositories (hub/)."""

# The release's version, in one place: setup.cfg reads it, and the Hub repositories pin it.
__version__ = "0.1.0"
