-- A programme version and a junket's agreed statement name the credit request approved for them
-- (a PROGRAMME or STATEMENT act, migration 20261216101500_credit_acts_programme_statement): who asked,
-- who approved, and the terms they agreed to. Each request is recorded once.
--
-- NULL: recorded before the control (issue 49). A NULL column is left out of a row's seal (seals hash
-- jsonb_strip_nulls(to_jsonb(row))), so the seals of rows written before stay valid.
ALTER TABLE "rolling_programmes" ADD COLUMN "request_id" UUID REFERENCES "credit_requests"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE "junket_statements" ADD COLUMN "request_id" UUID REFERENCES "credit_requests"("id") ON DELETE RESTRICT ON UPDATE RESTRICT;
CREATE UNIQUE INDEX "rolling_programmes_request_key" ON "rolling_programmes" ("request_id");
CREATE UNIQUE INDEX "junket_statements_request_key" ON "junket_statements" ("request_id");
