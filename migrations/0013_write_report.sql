-- The write stage's report (issue 40): with a model, what it kept of the model's claims and answer
-- and why not the rest, as JSON; the operator's (admin job detail), never in the customer's result.
ALTER TABLE `research_jobs` ADD `write_report` text;