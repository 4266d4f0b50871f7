-- Keys belong to named staff members (their employee number): two-person rules compare people,
-- not keys. Terminal keys belong to a table, not a person; keys made before this have none.
ALTER TABLE "api_keys" ADD COLUMN "staff_id" TEXT;
