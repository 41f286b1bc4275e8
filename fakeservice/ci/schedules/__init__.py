"""Pipeline schedules: a cron evaluator, the schedule records and their endpoints."""
