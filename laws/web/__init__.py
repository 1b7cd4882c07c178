"""The web app's blueprints, by area.  They only read the store (`laws.web.db`)."""
