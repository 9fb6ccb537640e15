/** PSU-IDs the test app gives Ola Nordmann (13039319955) with the test TPP and with the other TPP. */
export const PSU_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
export const OTHER_PSU_ID = '9b2f6f1e-2c1d-4f57-8a6e-1e0b7f2d4c10';
