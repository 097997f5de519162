"""A plugin module that raises when imported."""

raise RuntimeError("this plugin is broken")
