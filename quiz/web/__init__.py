"""The web face of the app: blueprints with thin views over the domain modules."""
